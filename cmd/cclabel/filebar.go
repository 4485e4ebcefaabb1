package main

import (
	"os"

	"github.com/urfave/cli/v3"
	"golang.org/x/term"

	"github.com/cclabel/cclabel/internal/fileprogress"
)

// quietFlag silences the progress bars and summary lines of the commands
// that print them.
var quietFlag = &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"},
	Usage: "no progress bar for long files and no summary line (errors and warnings are still printed)"}

// fileBar returns the progress bar of one input: drawn on stderr when it
// is a terminal and the file takes longer than fileprogress.DefaultDelay;
// nil (nothing shown) with --quiet or --json.
func fileBar(cmd *cli.Command, std stdio, name string) *fileprogress.Bar {
	if cmd.Bool("quiet") || cmd.Bool("json") {
		return nil
	}
	f, ok := std.Err.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	width := 80
	if cols, _, err := term.GetSize(int(f.Fd())); err == nil {
		width = cols
	}
	return fileprogress.New(std.Err, name, width, fileprogress.DefaultDelay)
}
