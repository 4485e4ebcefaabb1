package bench

import (
	"fmt"
	"io"
	"slices"

	"github.com/cclabel/cclabel"
)

// Options say what a benchmark run measures, as the flags of "cclabel
// bench" do.
type Options struct {
	// Backends are serial, cpu and gpu; a gpu that cannot be used is
	// skipped with the reason.
	Backends []string
	// Workloads are graph, image and volume.
	Workloads []string
	// Modes, Connectivity and Inputs are read by ParsePlan.
	Modes, Connectivity, Inputs string
	// Full uses the acceptance sizes.
	Full bool
	// Repeat is the runs per measurement, of which the median is reported.
	Repeat int
	// Threads is the cpu backend's goroutines (0: all cores).
	Threads int
}

// Run measures every workload on every backend. Options it cannot run are
// a [*ParamError].
func Run(o Options) ([]Result, error) {
	if o.Repeat < 1 {
		return nil, usagef("bench: --repeat %d: must be at least 1", o.Repeat)
	}
	for _, b := range o.Backends {
		if !slices.Contains([]string{"serial", "cpu", "gpu"}, b) {
			return nil, usagef("bench: unknown backend %q (want serial, cpu or gpu)", b)
		}
	}
	for _, w := range o.Workloads {
		if !slices.Contains([]string{"graph", "image", "volume"}, w) {
			return nil, usagef("bench: unknown workload %q (want graph, image or volume)", w)
		}
	}
	labelers := map[string]*cclabel.Labeler{}
	skipped := map[string]string{} // backend -> why it is skipped
	for _, b := range o.Backends {
		l, err := cclabel.New(cclabel.Options{Backend: cclabel.Backend(b), Threads: o.Threads})
		switch {
		case err != nil && b == "gpu":
			skipped[b] = err.Error()
		case err != nil:
			return nil, &ParamError{Err: err}
		default:
			defer l.Close()
			labelers[b] = l
		}
	}
	plan, err := ParsePlan(o.Modes, o.Connectivity, o.Inputs)
	if err != nil {
		return nil, &ParamError{Err: err}
	}
	var jobs []*Job
	for _, w := range o.Workloads {
		js, err := plan.Jobs(w, o.Full)
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, js...)
	}
	var results []Result
	for _, j := range jobs {
		for _, b := range o.Backends {
			if why, skip := skipped[b]; skip {
				results = append(results, j.Skipped(b, why))
				continue
			}
			r, err := j.Measure(labelers[b], b, o.Repeat)
			if err != nil {
				return nil, err
			}
			results = append(results, r)
		}
	}
	return results, nil
}

// WriteTable writes results as a table, one row a measurement.
func WriteTable(w io.Writer, results []Result) {
	fmt.Fprintf(w, "%-50s %-7s %12s %14s %12s\n", "workload", "backend", "kernel ms", "end-to-end ms", "M/s (kernel)")
	for _, r := range results {
		if r.Note != "" {
			fmt.Fprintf(w, "%-50s %-7s %s\n", r.Workload, r.Backend, r.Note)
			continue
		}
		fmt.Fprintf(w, "%-50s %-7s %12.3f %14.3f %12.1f %s\n", r.Workload, r.Backend, r.KernelMS, r.TotalMS, r.PerSec, r.Unit)
	}
}

// usagef returns a [*ParamError].
func usagef(format string, args ...any) error {
	return &ParamError{Err: fmt.Errorf(format, args...)}
}

// ParamError reports parameters a benchmark or a generator cannot use, such
// as an unknown backend or a size out of range, found before any work.
type ParamError struct{ Err error }

func (e *ParamError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *ParamError) Unwrap() error { return e.Err }
