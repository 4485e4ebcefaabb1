package raster

import (
	"io"
	"math"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/atomicfile"
)

// Settings say how a file's rasters are labeled and its outputs written.
type Settings struct {
	// Rule is the foreground rule; for volumes its scaling is taken from
	// the file (NIfTI scl_slope and scl_inter).
	Rule imagegraph.Rule
	// MinSize drops components of fewer voxels, Largest keeps only the
	// Largest biggest (0: all); the labels are then renumbered.
	MinSize int64
	Largest int
	// DType is the type of label arrays and volumes: auto (uint16 when
	// every label fits, else uint32), uint16, uint32 or int32 (.npy).
	DType string
	// Overlay draws an image's label map over the input instead of on
	// black.
	Overlay bool
	// Background, with a multilabel rule, is the sample value that is
	// background instead of 0; 0 is then a value like any other. 0 keeps
	// 0 as background.
	Background float64
	// Order is how the components are numbered, after the size filters.
	Order Order
	// Measures say what the statistics measure beyond the base columns,
	// with Threads goroutines (0: all cores).
	Measures Measures
	Threads  int
}

// Validate checks that the settings fit together: a background value needs
// a multilabel rule.
func (s Settings) Validate() error {
	if s.Background != 0 && s.Rule.Mode != imagegraph.Multilabel || math.IsNaN(s.Background) {
		return &BackgroundError{Value: s.Background}
	}
	return nil
}

// plain reports whether the settings label and number components as the
// labelers do, with no filter, background value or order to apply.
func (s Settings) plain() bool { return s.keepsAll() && s.Order == FirstOccurrence }

// keepsAll reports whether the settings keep the components the labelers
// find, in some order: no size filter or background value.
func (s Settings) keepsAll() bool { return s.MinSize <= 1 && s.Largest <= 0 && s.Background == 0 }

// writeOutput writes a file through a temporary file renamed into place,
// or to stdout when path is "-".
func writeOutput(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "-" {
		return write(stdout)
	}
	return atomicfile.WriteFile(path, write)
}
