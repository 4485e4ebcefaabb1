// Command cclabel labels connected components of graphs, images and
// volumes with the ECL-CC algorithm.
//
// Usage:
//
//	cclabel label [flags] IMAGE...
//	cclabel volume [flags] VOLUME...
//	cclabel batch [flags] INPUT... -o OUTDIR
//	cclabel graph [flags] GRAPH
//	cclabel gen graph grid|random|rmat [flags] -o FILE.egr
//	cclabel convert [flags] IN OUT
//
// Run "cclabel help COMMAND" for the flags of each command. Exit status is 0
// on success, 1 on failure, 2 on a usage error (an output that would
// replace an input among them), and 130 or 143 after SIGINT or SIGTERM,
// which leave no temporary file behind.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/cclabel/cclabel/cmd/cclabel/internal/clix"
	"github.com/cclabel/cclabel/cmd/cclabel/internal/toolcmd"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/urfave/cli/v3"
)

func main() {
	os.Exit(run(context.Background(), os.Args, stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}

// stdio holds the streams a command reads and writes (clix.Stdio).
type stdio = clix.Stdio

// run executes the command line args and returns the exit status.
func run(ctx context.Context, args []string, std stdio) int {
	defer catchSignals(std.Err)()
	app := newApp(std)
	err := app.Run(ctx, args)
	if atomicfile.Interrupted() {
		// A signal stopped the writes; its handler ends the process with
		// the signal's status once it has said what was not written.
		select {}
	}
	if err == nil {
		return 0
	}
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	fmt.Fprintf(std.Err, "cclabel: %s\n", msg)
	var ue usageError
	var ie interruptedError
	switch {
	case errors.As(err, &ue):
		return 2
	case errors.As(err, &ie):
		return exitStatus(ie.Signal)
	}
	return 1
}

// newApp builds the command tree.
func newApp(std stdio) *cli.Command {
	app := &cli.Command{
		Name:  "cclabel",
		Usage: "connected-component labeling of graphs, images and volumes (ECL-CC)",
		Description: "cclabel labels the connected components of general graphs with ECL-CC " +
			"(Jaiganesh & Burtscher, HPDC'18) on all CPU cores.",
		Reader:         std.In,
		Writer:         std.Out,
		ErrWriter:      std.Err,
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		OnUsageError:   onUsageError,
		HideVersion:    true,
		Flags:          []cli.Flag{versionFlag},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Bool("version") {
				return printVersion(std)
			}
			if cmd.NArg() > 0 {
				return usagef("unknown command %q (run 'cclabel help')", cmd.Args().First())
			}
			return cli.ShowRootCommandHelp(cmd)
		},
		Commands: []*cli.Command{
			labelCommand(std),
			volumeCommand(std),
			mergeCommand(std),
			graphCommand(std),
			toolcmd.Gen(std),
			convertCommand(std),
			toolcmd.Devices(std),
			toolcmd.Bench(std),
			batchCommand(std),
		},
	}
	return app
}

// usageError marks errors that should exit with status 2.
type usageError = clix.UsageError

// usagef returns a usage error.
func usagef(format string, args ...any) error { return clix.Usagef(format, args...) }

// onUsageError turns flag-parsing errors into usage errors.
func onUsageError(ctx context.Context, cmd *cli.Command, err error, sub bool) error {
	return clix.OnUsageError(ctx, cmd, err, sub)
}
