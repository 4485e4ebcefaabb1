package ecl

import "fmt"

// Algorithm selects the compute phase of ECL-CC.
type Algorithm int

const (
	// ECL is ECL-CC as published: each undirected edge is hooked once with
	// a lock-free compare-and-swap.
	ECL Algorithm = iota
	// ECLaf is the atomic-free variant: hooks are plain stores, and the
	// compute phase repeats until a pass changes nothing.
	ECLaf
)

// String returns the algorithm's name as ParseAlgorithm accepts it.
func (a Algorithm) String() string {
	switch a {
	case ECL:
		return "ecl"
	case ECLaf:
		return "eclaf"
	}
	return fmt.Sprintf("Algorithm(%d)", int(a))
}

// ParseAlgorithm parses "ecl" or "eclaf".
func ParseAlgorithm(s string) (Algorithm, error) {
	switch s {
	case "ecl":
		return ECL, nil
	case "eclaf":
		return ECLaf, nil
	}
	return 0, fmt.Errorf("ecl: unknown algorithm %q (want ecl or eclaf)", s)
}

// Options configures Components.
type Options struct {
	// Algorithm is ECL (default) or ECLaf.
	Algorithm Algorithm
	// Threads is the number of goroutines; 0 means GOMAXPROCS.
	Threads int
	// Serial selects the single-threaded implementation, which uses plain
	// loads and stores instead of atomics. Threads is then ignored.
	Serial bool
}
