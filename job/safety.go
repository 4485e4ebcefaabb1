package job

import (
	"fmt"

	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/job/raster"
)

// UsageError reports a job that cannot run as given. The cause is a setting
// out of range, an output of an unknown kind, an output that would replace an
// input. It is found before any work is done.
type UsageError struct{ Err error }

// Error returns the wrapped error's text.
func (e UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e UsageError) Unwrap() error { return e.Err }

// usagef returns a [UsageError].
func usagef(format string, args ...any) error { return UsageError{fmt.Errorf(format, args...)} }

// FailedError reports the failed inputs of a job over several files. Each was
// reported on the job's [Progress]; the other inputs were done.
type FailedError struct{ Failed, Inputs int }

func (e *FailedError) Error() string {
	return fmt.Sprintf("%d of %d inputs failed", e.Failed, e.Inputs)
}

// Interrupt abandons every output being written and lists them. It removes
// the temporary files of every output being written, makes the writes still
// in flight fail, and returns the outputs that will not be written, sorted. A
// set of outputs being renamed into place completes first, so every job's
// outputs appear whole or not at all. Call it when the process is told to
// stop.
func Interrupt() []string { return atomicfile.Interrupt() }

// Interrupted reports whether [Interrupt] was called.
func Interrupted() bool { return atomicfile.Interrupted() }

// CheckOutputDir checks that the folder an output goes to is a folder. It
// fails when the folder does not exist or is not a folder.
func CheckOutputDir(path string) error { return atomicfile.CheckDir(path) }

// inputFiles and outputFile name inputs and outputs for checkClobber.
func inputFiles(paths ...string) []atomicfile.Named {
	files := make([]atomicfile.Named, len(paths))
	for i, p := range paths {
		files[i] = atomicfile.Named{Role: "input", Path: p}
	}
	return files
}

func outputFile(role, path string) atomicfile.Named { return atomicfile.Named{Role: role, Path: path} }

// checkClobber fails with a usage error, before any work is done, when an
// output would replace an input or another output (atomicfile.CheckDistinct).
func checkClobber(command string, inputs, outputs []atomicfile.Named) error {
	if err := atomicfile.CheckDistinct(inputs, outputs); err != nil {
		return usagef("%s: %v", command, err)
	}
	return nil
}

// allOrNothing runs write, which writes the given outputs, so that they
// appear together when it succeeds and none of them when it fails or the
// process is interrupted (atomicfile.Group).
func allOrNothing(outputs []string, write func() error) error {
	return allOrNothingCommit(outputs, func(func() error) error { return write() })
}

// allOrNothingCommit is allOrNothing for a write that may commit its
// outputs itself, once they are all written: commit puts them in place (a
// later call does nothing), within the write's own time. Outputs the write
// has not committed are committed once it returns.
func allOrNothingCommit(outputs []string, write func(commit func() error) error) error {
	g, err := atomicfile.NewGroup(outputs...)
	if err != nil {
		return err
	}
	defer g.Abort()
	if err := write(g.Commit); err != nil {
		return err
	}
	return g.Commit()
}

// imageOutputFiles and volumeOutputFiles name a job's outputs by flag.
func imageOutputFiles(outs []raster.ImageOutputs) []atomicfile.Named {
	var files []atomicfile.Named
	for _, o := range outs {
		files = append(files, outputFile("-o", o.Output), outputFile("--labels", o.Labels), outputFile("--stats", o.Stats), outputFile("--contacts", o.Contacts))
	}
	return files
}

func volumeOutputFiles(outs []raster.VolumeOutputs) []atomicfile.Named {
	var files []atomicfile.Named
	for _, o := range outs {
		files = append(files, outputFile("-o", o.Output), outputFile("--labels", o.Labels), outputFile("--preview", o.Preview), outputFile("--stats", o.Stats),
			outputFile("--contacts", o.Contacts))
	}
	return files
}
