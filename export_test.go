package cclabel

import (
	"time"

	"github.com/cclabel/cclabel/imagegraph"
)

// SetSlabVoxels lowers the most voxels LabelRaster gives one kernel, so
// that tests reach the slab path on small rasters.
func SetSlabVoxels(l *Labeler, n int) { l.slabVoxels = n }

// LabelSpread labels r spread over l and peers (labelers of any backend)
// as LabelRaster spreads a raster over several GPUs.
func LabelSpread(l *Labeler, peers []*Labeler, r *imagegraph.Raster, rule imagegraph.Rule, conn int) (*RasterResult, error) {
	l.peers = peers
	defer func() { l.peers = nil }()
	return l.labelSlabs(r, rule, conn, nil, time.Now(), true)
}

// KeepsSlabs reports whether labeling r in slabs of thick planes on l (and
// its peers when spread) keeps the slabs' labels on the GPUs.
func KeepsSlabs(l *Labeler, r *imagegraph.Raster, rule imagegraph.Rule, thick int, spread bool) bool {
	labelers := []*Labeler{l}
	if spread {
		labelers = append(labelers, l.peers...)
	}
	return l.keepsSlabs(r, rule, labelers, thick, spread)
}
