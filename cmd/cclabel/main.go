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
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cclabel/cclabel/bench"
	"github.com/cclabel/cclabel/job"
	"github.com/urfave/cli/v3"
)

func main() {
	job.HoldGPU()
	job.SetDriverDefaults()
	code := run(context.Background(), os.Args, stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
	job.ExitGPU(opened...)
	os.Exit(code)
}

// stdio holds the streams a command reads and writes, so tests can run the
// CLI in process.
type stdio struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

// progress returns a job's progress on std.Err: quiet with --quiet,
// without a display with --json.
func (std stdio) progress(cmd *cli.Command) job.Progress {
	return job.Progress{W: std.Err, Quiet: cmd.Bool("quiet"), NoDisplay: cmd.Bool("json")}
}

// run executes the command line args and returns the exit status.
func run(ctx context.Context, args []string, std stdio) int {
	defer catchSignals(std.Err)()
	app := newApp(std)
	err := app.Run(ctx, args)
	if job.Interrupted() {
		// A signal stopped the writes; its handler ends the process with
		// the signal's status once it has said what was not written.
		select {}
	}
	if err == nil {
		return 0
	}
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	fmt.Fprintf(std.Err, "cclabel: %s\n", msg)
	var ue job.UsageError
	var pe *bench.ParamError
	var ie interruptedError
	switch {
	case errors.As(err, &ue), errors.As(err, &pe):
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
			genCommand(std),
			convertCommand(std),
			devicesCommand(std),
			benchCommand(std),
			batchCommand(std),
		},
	}
	return app
}

// usagef returns a usage error (exit status 2).
func usagef(format string, args ...any) error {
	return job.UsageError{Err: fmt.Errorf(format, args...)}
}

// onUsageError turns flag-parsing errors into usage errors.
func onUsageError(_ context.Context, _ *cli.Command, err error, _ bool) error {
	return job.UsageError{Err: err}
}

// writeJSON prints v as one indented JSON object.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("json summary: %w", err)
	}
	return nil
}

// printSummaries prints the JSON summaries of a job over inputs files, with
// asJSON, when it ran: one object for one input, an array for several
// (of the inputs that did not fail). It returns the job's error.
func printSummaries[S any](std stdio, asJSON bool, inputs int, summaries []S, err error) error {
	var failed *job.FailedError
	if !asJSON || err != nil && !errors.As(err, &failed) {
		return err
	}
	var v any = summaries
	if inputs == 1 {
		v = summaries[0]
	}
	if jerr := writeJSON(std.Out, v); jerr != nil {
		return jerr
	}
	return err
}
