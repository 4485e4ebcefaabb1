package grid

// GridKey is the type of a grid's connectivity keys.
type GridKey interface{ ~uint32 | ~uint64 }

// KeyRows produces a grid's connectivity keys one row at a time. Key 0 is
// background, and two neighbouring foreground pixels are joined when their
// keys are equal. Row r is y + z*Height. Keys must be safe for concurrent
// use on different rows.
type KeyRows[K GridKey] interface {
	Keys(row int, dst []K)
}

// KeyRun is a run of pixels [Start, End) of a row that hold one key.
type KeyRun[K GridKey] struct {
	Start, End int32
	// Key is the pixels' key, nonzero.
	Key K
}

// RunRows produces a grid's rows as runs of equal keys. Key 0 is
// background, and two neighbouring pixels are joined when their keys are
// equal and nonzero. Row r is y + z*Height. It must be safe for concurrent
// use on different rows.
type RunRows[K GridKey] interface {
	// AppendRuns appends to dst the maximal runs of equal nonzero keys of
	// row, in column order (two runs that meet hold different keys), and
	// returns it.
	AppendRuns(row int, dst []KeyRun[K]) []KeyRun[K]
}
