package cclabel

import (
	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/imagegraph"
)

// Rule says which samples of a raster are foreground and which of them
// connect: an [imagegraph.Rule], named here for the callers of
// [Labeler.LabelRaster].
type Rule = imagegraph.Rule

// The modes of a [Rule].
const (
	// Multilabel: equal nonzero values connect.
	Multilabel = imagegraph.Multilabel
	// Binary: any nonzero value is foreground.
	Binary = imagegraph.Binary
	// Threshold: values at or above Rule.Threshold are foreground (below
	// it with Rule.Invert).
	Threshold = imagegraph.Threshold
)

// ParseAlgorithm returns the graph algorithm named auto, ecl, eclaf or
// afforest, for [Options.Algorithm] ([ecl.ParseAlgorithm]).
func ParseAlgorithm(name string) (ecl.Algorithm, error) { return ecl.ParseAlgorithm(name) }
