package runs

// The labelers are generic, so a package that calls them compiles its own
// instantiation of them, and can inline into it only the helpers whose
// bodies this package's export data carries. The compiler writes there the
// bodies of another package's functions only where this package's own
// compiled code inlines them: without the instantiations below, package
// band's small helpers (Find, Clear32, Band.MarkPending, called per run or
// per row) would be calls in LabelRuns and LabelGrid as gridcc and the
// benchmarks compile them. Instantiating the labelers here compiles them in
// this package, band's helpers inlined.
var (
	_ = LabelRuns[uint32]
	_ = LabelRuns[uint64]
	_ = LabelGrid[uint32]
	_ = LabelGrid[uint64]
)
