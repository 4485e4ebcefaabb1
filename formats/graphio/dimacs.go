package graphio

import (
	"errors"
	"fmt"
	"io"

	"github.com/cclabel/cclabel/ecl"
)

// ReadDIMACS reads a DIMACS or PACE graph (.gr) from r. Lines starting with
// c or # are comments; a "p KIND n m" line (PACE: "p tw n m", DIMACS
// shortest paths: "p sp n m") must precede the edges, which are "u v",
// "a u v [w]" or "e u v" lines with 1-based vertices in [1, n]; there must
// be exactly m of them. Each is an undirected edge. Base is 1.
func ReadDIMACS(r io.Reader, opts ReadOptions) (*LoadedGraph, error) {
	return readDIMACS(r, newConfig(opts, -1))
}

// readDIMACS implements ReadDIMACS.
func readDIMACS(r io.Reader, cfg readConfig) (*LoadedGraph, error) {
	lr := newLineReader(r)
	var f [4][]byte
	var n, m, edges int64
	var us, vs []int32
	seenP := false
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		c := firstByte(line)
		switch c {
		case 0, 'c', '#':
			continue
		case 'p':
			if seenP {
				return nil, lr.errorf("second p line")
			}
			var err error
			if n, m, err = dimacsProblem(lr, line, cfg); err != nil {
				return nil, err
			}
			seenP = true
			c := initialCap(m, cfg.size, 4)
			us, vs = make([]int32, 0, c), make([]int32, 0, c)
			continue
		}
		k := fields(line, f[:3], false)
		if c == 'a' || c == 'e' {
			if len(f[0]) != 1 || k < 3 {
				return nil, lr.errorf("edge line %s is not \"%c u v\"", quote(line), c)
			}
			f[0], f[1] = f[1], f[2]
		} else if k < 2 {
			return nil, lr.errorf("edge line %s is not \"u v\"", quote(line))
		}
		u, ok1 := parseInt(f[0])
		v, ok2 := parseInt(f[1])
		if !ok1 || !ok2 {
			return nil, lr.errorf("edge line %s: vertices are not integers", quote(line))
		}
		if !seenP {
			return nil, lr.errorf("edge before the p line")
		}
		if edges == m {
			return nil, lr.errorf("more edges than the %d the p line promised", m)
		}
		if u < 1 || u > n || v < 1 || v > n {
			return nil, lr.errorf("edge (%d, %d) out of range [1, %d]", u, v, n)
		}
		edges++
		if len(us) == cap(us) {
			us, vs = growTo(us, m), growTo(vs, m)
		}
		us, vs = append(us, int32(u-1)), append(vs, int32(v-1))
	}
	if lr.err != nil {
		return nil, lr.err
	}
	if !seenP {
		if lr.line == 0 {
			return nil, errors.New("formats: empty input (a DIMACS graph needs a \"p KIND n m\" line)")
		}
		return nil, fmt.Errorf("formats: line %d: no \"p KIND n m\" line", lr.line)
	}
	if edges != m {
		return nil, fmt.Errorf("formats: line %d: found %d edges, but the p line promised %d", lr.line, edges, m)
	}
	g, err := ecl.FromEdges(int(n), us, vs)
	if err != nil {
		return nil, fmt.Errorf("formats: %w", err)
	}
	return &LoadedGraph{Graph: g, Base: 1}, nil
}

// dimacsProblem parses a "p KIND n m" line.
func dimacsProblem(lr *lineReader, line []byte, cfg readConfig) (n, m int64, err error) {
	var f [4][]byte
	if k := fields(line, f[:], false); k < 4 || len(f[0]) != 1 {
		return 0, 0, lr.errorf("p line %s is not \"p KIND n m\"", quote(line))
	}
	n, ok1 := parseInt(f[2])
	m, ok2 := parseInt(f[3])
	if !ok1 || !ok2 || n < 0 || m < 0 {
		return 0, 0, lr.errorf("p line %s: n and m must be non-negative integers", quote(line))
	}
	if n > cfg.maxVertices {
		return 0, 0, lr.errorf("p line promises %d vertices, more than the limit of %d", n, cfg.maxVertices)
	}
	return n, m, nil
}
