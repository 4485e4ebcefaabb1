package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/cclabel/cclabel/ecl/incremental"
)

// The --updates file of "cclabel graph", one operation a line:
//
//	i U V   insert the undirected edge U-V
//	q U V   query: print 1 when U and V are connected, else 0
//	c V     component: print the ID of the smallest vertex in V's component
//
// U and V are vertex IDs as the graph file writes them (1-based for Matrix
// Market and DIMACS, the file's own IDs for edge lists); every vertex must
// be one of the graph's. Fields are separated by spaces or tabs; '#' starts
// a comment, blank lines are skipped. Consecutive insertions form one
// batch (up to maxUpdateBatch edges), inserted in parallel before the next
// query is answered; consecutive queries are answered together, and the
// answers are printed in the order of the lines, one a line. The first
// bad line stops the replay with an error naming it.

// maxUpdateBatch bounds the insertions (or queries) held before they are
// sent to the union-find.
const maxUpdateBatch = 1 << 22

// updatesSummary is the "updates" object of graph's --json summary.
type updatesSummary struct {
	File string `json:"file"`
	// Inserts and Batches count the insertions and the batches they
	// were sent in; Queries counts q and c lines.
	Inserts int64 `json:"inserts"`
	Batches int   `json:"batches"`
	Queries int64 `json:"queries"`
	// Components is the component count after the last line.
	Components int `json:"components"`
	// InsertSeconds is the time spent inserting; Seconds the whole
	// replay, parsing and printing included.
	InsertSeconds float64 `json:"insert_seconds"`
	Seconds       float64 `json:"seconds"`
}

// updateReplay holds the state of one --updates replay.
type updateReplay struct {
	uf    incremental.Connectivity
	ids   *vertexIDs
	id    func(int) int64
	out   *bufio.Writer
	sum   updatesSummary
	us    []int32 // pending insertions
	vs    []int32
	qu    []int32 // pending queries: c queries have qv == -1
	qv    []int32
	conn  []bool
	reps  []int32
	queue int // pending operations kind: 'i', 'q' or 0
}

// replayUpdates replays the --updates file at path ('-' for stdin) on uf
// and prints the answers on out.
func replayUpdates(path string, stdin io.Reader, uf incremental.Connectivity, ids *vertexIDs,
	id func(int) int64, out io.Writer) (*updatesSummary, error) {
	start := time.Now()
	in := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("--updates: %w", err)
		}
		defer f.Close()
		in = f
	}
	r := &updateReplay{uf: uf, ids: ids, id: id, out: bufio.NewWriterSize(out, 1<<16)}
	r.sum.File = path
	sc := bufio.NewScanner(bufio.NewReaderSize(in, 1<<20))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		if err := r.line(sc.Bytes()); err != nil {
			return nil, fmt.Errorf("--updates %s:%d: %w", path, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--updates %s: after line %d: %w", path, line, err)
	}
	if err := r.flush(); err != nil {
		return nil, fmt.Errorf("--updates %s: %w", path, err)
	}
	if err := r.out.Flush(); err != nil {
		return nil, fmt.Errorf("--updates answers: %w", err)
	}
	r.sum.Components = uf.Components()
	r.sum.Seconds = time.Since(start).Seconds()
	return &r.sum, nil
}

// line parses and queues one line.
func (r *updateReplay) line(b []byte) error {
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
	op := fields[0]
	want := 0
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
		if v[k-1], ok = r.ids.vertex(id); !ok {
			return fmt.Errorf("vertex ID %d is not a vertex of the graph", id)
		}
	}
	kind := 'q'
	if op[0] == 'i' {
		kind = 'i'
	}
	if r.queue != 0 && r.queue != int(kind) {
		if err := r.flush(); err != nil {
			return err
		}
	}
	r.queue = int(kind)
	switch op[0] {
	case 'i':
		r.us, r.vs = append(r.us, v[0]), append(r.vs, v[1])
	case 'q':
		r.qu, r.qv = append(r.qu, v[0]), append(r.qv, v[1])
	case 'c':
		r.qu, r.qv = append(r.qu, v[0]), append(r.qv, -1)
	}
	if len(r.us) >= maxUpdateBatch || len(r.qu) >= maxUpdateBatch {
		return r.flush()
	}
	return nil
}

// flush inserts the pending batch or answers the pending queries.
func (r *updateReplay) flush() error {
	defer func() { r.queue = 0 }()
	if len(r.us) > 0 {
		start := time.Now()
		if err := r.uf.Insert(r.us, r.vs); err != nil {
			return err
		}
		r.sum.InsertSeconds += time.Since(start).Seconds()
		r.sum.Inserts += int64(len(r.us))
		r.sum.Batches++
		r.us, r.vs = r.us[:0], r.vs[:0]
	}
	if len(r.qu) == 0 {
		return nil
	}
	m := len(r.qu)
	// q pairs and c vertices are asked in one batch each.
	var pu, pv, cv []int32
	for i := range m {
		if r.qv[i] < 0 {
			cv = append(cv, r.qu[i])
		} else {
			pu, pv = append(pu, r.qu[i]), append(pv, r.qv[i])
		}
	}
	r.conn = append(r.conn[:0], make([]bool, len(pu))...)
	r.reps = append(r.reps[:0], make([]int32, len(cv))...)
	if err := r.uf.ConnectedBatch(pu, pv, r.conn); err != nil {
		return err
	}
	if err := r.uf.RepresentativesBatch(cv, r.reps); err != nil {
		return err
	}
	var buf []byte
	pi, ci := 0, 0
	for i := range m {
		buf = buf[:0]
		if r.qv[i] < 0 {
			buf = strconv.AppendInt(buf, r.id(int(r.reps[ci])), 10)
			ci++
		} else {
			buf = append(buf, '0')
			if r.conn[pi] {
				buf[0] = '1'
			}
			pi++
		}
		buf = append(buf, '\n')
		if _, err := r.out.Write(buf); err != nil {
			return fmt.Errorf("answers: %w", err)
		}
	}
	r.sum.Queries += int64(m)
	r.qu, r.qv = r.qu[:0], r.qv[:0]
	return nil
}

// parseID parses a decimal integer with an optional sign, and reports
// whether it is one that fits an int64.
func parseID(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		if len(b) > 18 { // rare: let strconv judge the range
			x, err := strconv.ParseInt(string(b), 10, 64)
			if neg {
				x = -x
			}
			return x, err == nil
		}
		return 0, false
	}
	var x int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		x = 10*x + int64(c-'0')
	}
	if neg {
		x = -x
	}
	return x, true
}
