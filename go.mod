module github.com/cclabel/cclabel

go 1.26.0

require (
	github.com/disintegration/imaging v1.6.2
	github.com/ebitengine/purego v0.11.3
	github.com/klauspost/compress v1.20.3
	github.com/ulikunitz/xz v0.5.15
	github.com/urfave/cli/v3 v3.14.0
	golang.org/x/image v0.47.0
	golang.org/x/term v0.47.0
)

require golang.org/x/sys v0.49.0
