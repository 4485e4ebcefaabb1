package cclabel

import (
	"fmt"

	"github.com/cclabel/cclabel/ecl"
)

// SpanningForest labels g and also returns a spanning forest of it. It labels
// as [Labeler.LabelGraph] does, on the same backend, and builds the forest
// (see [ecl.SpanningForest]) by recording the edge of every successful hook,
// on the GPU as on the CPU. [ecl.ECLaf] cannot record a forest (its plain
// stores may overwrite a hook) and fails.
func (l *Labeler) SpanningForest(g *ecl.Graph) (*GraphResult, *ecl.Forest, error) {
	if l.opts.Algorithm == ecl.ECLaf {
		return nil, nil, fmt.Errorf("cclabel: ECLaf cannot record a spanning forest: use ecl, afforest or auto")
	}
	res, f, err := l.labelGraph(g, true)
	if err != nil {
		return nil, nil, fmt.Errorf("cclabel: %w", err)
	}
	return res, f, nil
}

// cpuAlgorithm returns the algorithm the CPU runs on g: the options'
// algorithm, with ecl.Auto resolved.
func (l *Labeler) cpuAlgorithm(g *ecl.Graph) ecl.Algorithm {
	if l.opts.Algorithm == ecl.Auto {
		return ecl.ChooseAlgorithm(g)
	}
	return l.opts.Algorithm
}
