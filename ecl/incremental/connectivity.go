package incremental

// Connectivity is incremental connectivity over vertices 0..n-1. Vertex
// IDs outside that range are errors. Methods must not overlap an Insert
// when their answers are to reflect exactly the batches inserted so far.
type Connectivity interface {
	// NumVertices returns n.
	NumVertices() int
	// Components returns the number of components.
	Components() int
	// Insert adds the undirected edges (us[i], vs[i]). Self-loops and
	// repeated edges are allowed and change nothing.
	Insert(us, vs []int32) error
	// ConnectedBatch sets dst[i] to whether us[i] and vs[i] are in the
	// same component.
	ConnectedBatch(us, vs []int32, dst []bool) error
	// RepresentativesBatch sets dst[i] to the representative of vs[i]:
	// the smallest vertex ID of its component.
	RepresentativesBatch(vs, dst []int32) error
}
