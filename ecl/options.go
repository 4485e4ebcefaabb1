package ecl

import "fmt"

// Algorithm selects how the components are computed.
//
// Every algorithm gives the same representatives (each component's
// smallest vertex ID).
type Algorithm int

const (
	// ECL is ECL-CC as published: each undirected edge is hooked once with
	// a lock-free compare-and-swap.
	ECL Algorithm = iota
	// ECLaf is the atomic-free variant of ECL-CC. Hooks are plain stores, and
	// the compute phase repeats until a pass changes nothing (see
	// [ComponentsAtomicFree]).
	ECLaf
	// Afforest samples neighbours to find the giant component, then skips its
	// edges. It links the first few neighbours of every vertex, finds the
	// largest intermediate component by sampling and skips the edges inside it
	// (see [ComponentsAfforest]).
	Afforest
	// Auto picks the algorithm measured fastest for the graph's shape on
	// the CPU (see [ChooseAlgorithm]).
	Auto
)

// String returns the algorithm's name as [ParseAlgorithm] accepts it.
func (a Algorithm) String() string {
	switch a {
	case ECL:
		return "ecl"
	case ECLaf:
		return "eclaf"
	case Afforest:
		return "afforest"
	case Auto:
		return "auto"
	}
	return fmt.Sprintf("Algorithm(%d)", int(a))
}

// Valid reports whether a is one of the algorithms above.
func (a Algorithm) Valid() bool { return a >= ECL && a <= Auto }

// ParseAlgorithm parses "ecl", "eclaf", "afforest" or "auto".
func ParseAlgorithm(s string) (Algorithm, error) {
	for a := ECL; a <= Auto; a++ {
		if s == a.String() {
			return a, nil
		}
	}
	return 0, fmt.Errorf("ecl: unknown algorithm %q (want ecl, eclaf, afforest or auto)", s)
}

// Options configures [Components] and [SpanningForest].
type Options struct {
	// Algorithm is [ECL] (default), [ECLaf], [Afforest] or [Auto].
	Algorithm Algorithm
	// Threads is the number of goroutines; 0 means GOMAXPROCS.
	Threads int
	// Serial selects the single-threaded implementation, which uses plain
	// loads and stores instead of atomics. Threads is then ignored.
	// ECLaf and Afforest have no separate serial code: they run their
	// parallel code on one goroutine.
	Serial bool
	// SampleRounds is Afforest's k, the neighbours of each vertex linked
	// before the largest component is looked for; 0 means adaptive (see
	// [ComponentsAfforest]).
	SampleRounds int
}
