package gridcc

import "github.com/cclabel/cclabel/imagegraph"

// RowKeys serves the rows of a raster as 32-bit connectivity keys. Row y
// of plane z is row z*Height+y; its keys are 0 for background and equal
// for samples that join under the rule (for 64-bit multilabel samples,
// distinct values may share a key). The CPU labelers read rows the same
// way.
type RowKeys struct {
	rows source
}

// NewRowKeys returns the keys of r's rows under rule.
func NewRowKeys(r *imagegraph.Raster, rule imagegraph.Rule) RowKeys {
	return RowKeys{newSource(r, rule)}
}

// Row writes the keys of row into dst, which holds Width entries.
func (k RowKeys) Row(row int, dst []uint32) { k.rows.Keys(row, dst) }
