package incremental

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"
)

// DefaultMaxBatch is the most insertions (or queries) [Replay] sends in one
// batch.
//
// Replay holds at most this many before sending them to the structure.
const DefaultMaxBatch = 1 << 22

// ReplayOptions configure [Replay].
type ReplayOptions struct {
	// Vertex maps a file ID to a vertex and reports whether it is one;
	// nil means IDs are the vertices 0..n-1.
	Vertex func(id int64) (int32, bool)
	// ID maps a vertex back to its file ID for c answers; nil means the
	// vertex itself.
	ID func(v int) int64
	// MaxBatch bounds a batch; 0 means [DefaultMaxBatch].
	MaxBatch int
}

// ReplayStats describe a replay (see [Replay]).
type ReplayStats struct {
	// Inserts and Batches count the insertions and the batches they were
	// sent in; Queries counts q and c lines.
	Inserts int64 `json:"inserts"`
	Batches int   `json:"batches"`
	Queries int64 `json:"queries"`
	// Components is the component count after the last line.
	Components int `json:"components"`
	// InsertSeconds is the time spent in Insert; Seconds the whole
	// replay, parsing and printing included.
	InsertSeconds float64 `json:"insert_seconds"`
	Seconds       float64 `json:"seconds"`
}

// Replay applies the update lines of r to c and writes the answers to w.
//
// It writes one answer a line, in the order of the lines. A line is one of
//
//	i U V   insert the undirected edge U-V
//	q U V   query: answer 1 when U and V are connected, else 0
//	c V     component: answer the ID of the smallest vertex of V's component
//
// with fields separated by spaces or tabs; '#' starts a comment and blank lines
// are skipped. Consecutive insertions form one batch (up to
// [ReplayOptions.MaxBatch]), inserted before the next query is answered;
// consecutive queries are answered as one batch. The first bad line stops the
// replay with an error that names it ("line N: ..."); the answers before it
// have been written.
func Replay(r io.Reader, c Connectivity, w io.Writer, opts ReplayOptions) (*ReplayStats, error) {
	start := time.Now()
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = DefaultMaxBatch
	}
	n := c.NumVertices()
	if opts.Vertex == nil {
		opts.Vertex = func(id int64) (int32, bool) { return int32(id), id >= 0 && id < int64(n) }
	}
	if opts.ID == nil {
		opts.ID = func(v int) int64 { return int64(v) }
	}
	rp := &replay{c: c, opts: opts, out: bufio.NewWriterSize(w, 1<<16)}
	sc := bufio.NewScanner(bufio.NewReaderSize(r, 1<<20))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		if err := rp.line(sc.Bytes()); err != nil {
			return nil, fmt.Errorf("incremental: line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("incremental: after line %d: %w", line, err)
	}
	if err := rp.flush(); err != nil {
		return nil, fmt.Errorf("incremental: %w", err)
	}
	if err := rp.out.Flush(); err != nil {
		return nil, fmt.Errorf("incremental: answers: %w", err)
	}
	rp.stats.Components = c.Components()
	rp.stats.Seconds = time.Since(start).Seconds()
	return &rp.stats, nil
}

// replay holds the state of one [Replay].
type replay struct {
	c      Connectivity
	opts   ReplayOptions
	out    *bufio.Writer
	stats  ReplayStats
	us, vs []int32 // pending insertions
	qu, qv []int32 // pending queries: c queries have qv == -1
	kind   byte    // pending operations: 'i', 'q' or 0
}

// line parses and queues one line.
func (r *replay) line(b []byte) error {
	var fields [4][]byte
	nf := 0
	for i := 0; i < len(b) && b[i] != '#'; {
		if b[i] == ' ' || b[i] == '\t' || b[i] == '\r' {
			i++
			continue
		}
		j := i
		for j < len(b) && b[j] != ' ' && b[j] != '\t' && b[j] != '\r' && b[j] != '#' {
			j++
		}
		if nf == len(fields) {
			return fmt.Errorf("too many fields")
		}
		fields[nf] = b[i:j]
		nf++
		i = j
	}
	if nf == 0 {
		return nil
	}
	op, want := fields[0], 0
	if len(op) == 1 {
		switch op[0] {
		case 'i', 'q':
			want = 3
		case 'c':
			want = 2
		}
	}
	if want == 0 {
		return fmt.Errorf("unknown operation %q (want i, q or c)", op)
	}
	if nf != want {
		return fmt.Errorf("%q wants %d vertex IDs, got %d", op, want-1, nf-1)
	}
	var v [2]int32
	for k := 1; k < nf; k++ {
		id, ok := parseID(fields[k])
		if !ok {
			return fmt.Errorf("vertex ID %q: not an integer", fields[k])
		}
		if v[k-1], ok = r.opts.Vertex(id); !ok {
			return fmt.Errorf("vertex ID %d is not a vertex of the graph", id)
		}
	}
	kind := byte('q')
	if op[0] == 'i' {
		kind = 'i'
	}
	if r.kind != 0 && r.kind != kind {
		if err := r.flush(); err != nil {
			return err
		}
	}
	r.kind = kind
	switch op[0] {
	case 'i':
		r.us, r.vs = append(r.us, v[0]), append(r.vs, v[1])
	case 'q':
		r.qu, r.qv = append(r.qu, v[0]), append(r.qv, v[1])
	case 'c':
		r.qu, r.qv = append(r.qu, v[0]), append(r.qv, -1)
	}
	if len(r.us) >= r.opts.MaxBatch || len(r.qu) >= r.opts.MaxBatch {
		return r.flush()
	}
	return nil
}

// flush inserts the pending batch or answers the pending queries.
func (r *replay) flush() error {
	r.kind = 0
	if len(r.us) > 0 {
		start := time.Now()
		if err := r.c.Insert(r.us, r.vs); err != nil {
			return err
		}
		r.stats.InsertSeconds += time.Since(start).Seconds()
		r.stats.Inserts += int64(len(r.us))
		r.stats.Batches++
		r.us, r.vs = r.us[:0], r.vs[:0]
	}
	if len(r.qu) == 0 {
		return nil
	}
	// q pairs and c vertices are asked in one batch each.
	var pu, pv, cv []int32
	for i, u := range r.qu {
		if r.qv[i] < 0 {
			cv = append(cv, u)
		} else {
			pu, pv = append(pu, u), append(pv, r.qv[i])
		}
	}
	conn, reps := make([]bool, len(pu)), make([]int32, len(cv))
	if err := r.c.ConnectedBatch(pu, pv, conn); err != nil {
		return err
	}
	if err := r.c.RepresentativesBatch(cv, reps); err != nil {
		return err
	}
	var buf []byte
	for i := range r.qu {
		buf = buf[:0]
		if r.qv[i] < 0 {
			buf = strconv.AppendInt(buf, r.opts.ID(int(reps[0])), 10)
			reps = reps[1:]
		} else {
			buf = append(buf, '0')
			if conn[0] {
				buf[0] = '1'
			}
			conn = conn[1:]
		}
		buf = append(buf, '\n')
		if _, err := r.out.Write(buf); err != nil {
			return fmt.Errorf("answers: %w", err)
		}
	}
	r.stats.Queries += int64(len(r.qu))
	r.qu, r.qv = r.qu[:0], r.qv[:0]
	return nil
}

// parseID parses a decimal vertex ID with an optional sign ('+' or '-')
// and reports whether b is one that fits an int64, without the string
// conversion strconv needs.
func parseID(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var u uint64
	for _, c := range b {
		d := uint64(c) - '0'
		if d > 9 || u > (math.MaxUint64-9)/10 {
			return 0, false
		}
		u = u*10 + d
	}
	switch {
	case neg && u <= 1<<63:
		return int64(-u), true
	case !neg && u <= math.MaxInt64:
		return int64(u), true
	}
	return 0, false
}
