module github.com/cclabel/cclabel

go 1.26
