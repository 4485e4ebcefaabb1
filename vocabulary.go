package cclabel

import (
	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/imagegraph"
)

// Rule says which samples of a raster are foreground and which connect. It is
// an [imagegraph.Rule], named here for the callers of [Labeler.LabelRaster].
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

// ParseAlgorithm returns the graph algorithm of the given name. The names are
// auto, ecl, eclaf and afforest; the result goes in [Options.Algorithm] (see
// [ecl.ParseAlgorithm]).
func ParseAlgorithm(name string) (ecl.Algorithm, error) { return ecl.ParseAlgorithm(name) }
