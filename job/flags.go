package job

import (
	"strconv"
	"strings"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/job/raster"
)

// RuleOf returns the foreground rule that a command's flags ask for: binary
// (--binary), a threshold (--threshold with hasThreshold, --invert) or, by
// default, multilabel. It fails with a [UsageError] when the flags exclude
// each other.
func RuleOf(binary, hasThreshold bool, threshold float64, invert bool) (cclabel.Rule, error) {
	switch {
	case binary && hasThreshold:
		return cclabel.Rule{}, usagef("--binary and --threshold exclude each other")
	case invert && !hasThreshold:
		return cclabel.Rule{}, usagef("--invert needs --threshold")
	case hasThreshold:
		r := cclabel.Rule{Mode: cclabel.Threshold, Threshold: threshold, Invert: invert}
		if err := r.Validate(); err != nil {
			return cclabel.Rule{}, UsageError{Err: err}
		}
		return r, nil
	case binary:
		return cclabel.Rule{Mode: cclabel.Binary}, nil
	}
	return cclabel.Rule{Mode: cclabel.Multilabel}, nil
}

// ParseGPUs reads the value of --gpus: a count N (GPUs 0..N-1) or a
// comma-separated list of ordinals (a repeated one shares its GPU, for
// trials). It fails with a [UsageError].
func ParseGPUs(spec string) ([]int, error) {
	parts := strings.Split(spec, ",")
	if len(parts) == 1 {
		n, err := strconv.Atoi(spec)
		if err != nil || n < 1 || n > 64 {
			return nil, usagef("--gpus %q: want a count from 1 to 64 or a list of GPU ordinals such as 0,1", spec)
		}
		gpus := make([]int, n)
		for i := range gpus {
			gpus[i] = i
		}
		return gpus, nil
	}
	gpus := make([]int, len(parts))
	for i, p := range parts {
		g, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || g < 0 {
			return nil, usagef("--gpus %q: %q is not a GPU ordinal", spec, p)
		}
		gpus[i] = g
	}
	return gpus, nil
}

// ParseOrder reads the value of --order: "first" or "size", as
// [raster.Order.String] writes them, or "" for first. It fails with a
// [UsageError].
func ParseOrder(s string) (raster.Order, error) {
	switch s {
	case "first", "":
		return raster.FirstOccurrence, nil
	case "size":
		return raster.BySize, nil
	}
	return 0, usagef("--order %q: want first or size", s)
}

// ParseMeasures reads the value of --measure: a comma-separated list of
// intensity and shape ([raster.Measures]), or "" for none. It fails with a
// [UsageError].
func ParseMeasures(list string) (raster.Measures, error) {
	var m raster.Measures
	for _, name := range strings.Split(list, ",") {
		switch strings.TrimSpace(name) {
		case "intensity":
			m.Intensity = true
		case "shape":
			m.Shape = true
		case "":
			if list != "" {
				return m, usagef("--measure %q: an empty name", list)
			}
		default:
			return m, usagef("--measure %q: want a list of intensity and shape", list)
		}
	}
	return m, nil
}
