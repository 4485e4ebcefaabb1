package incremental

// Connectivity is incremental connectivity over vertices 0..n-1.
//
// Insert adds a batch of undirected edges, and between batches the
// queries answer whether two vertices are connected and which component a
// vertex is in. The calls are batched only, so that a GPU backend can take
// a batch per kernel launch; the root package's cclabel.Connectivity picks
// a backend by the labeler's backend.
//
// Vertex IDs outside 0..n-1 are errors. Methods must not overlap an Insert
// when their answers are to reflect exactly the batches inserted so far.
//
// Every backend hooks the larger representative under the smaller, so a
// component's representative is its smallest vertex ID, on every backend
// and whatever the order of insertion: answers never depend on scheduling,
// and match a static labeling (package [ecl]) of all edges inserted so far.
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
