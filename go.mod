module github.com/cclabel/cclabel

go 1.26

require github.com/urfave/cli/v3 v3.14.0 // indirect
