package graphio

import (
	"bytes"
	"errors"
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// chunkedReader is a reader under test and its serial oracle.
type chunkedReader struct {
	name    string
	chunked func(io.Reader, readConfig) (*LoadedGraph, error)
	serial  func(io.Reader, readConfig) (*LoadedGraph, error)
}

var chunkedReaders = []chunkedReader{
	{"edgelist", readEdgeList, serialEdgeList},
	{"dimacs", readDIMACS, serialDIMACS},
	{"mtx", readMatrixMarket, serialMatrixMarket},
}

// chunkConfigs are the thread counts and chunk sizes the chunked readers
// must agree with the serial oracle in: one chunk on one goroutine, and
// many tiny chunks (cut mid-line, mid-number) on several.
var chunkConfigs = []struct{ threads, chunkBytes int }{
	{1, fileio.DefaultChunkBytes}, {1, 3}, {2, 1}, {3, 2}, {4, 7}, {2, 64},
}

// sameGraph returns "" when a and b hold the same graph, IDs, base and
// warnings, else what differs.
func sameGraph(a, b *LoadedGraph) string {
	switch {
	case !slices.Equal(a.Graph.Offsets, b.Graph.Offsets) || !slices.Equal(a.Graph.Neighbors, b.Graph.Neighbors):
		return "graphs differ"
	case !slices.Equal(a.IDs, b.IDs) || a.Base != b.Base:
		return "IDs differ"
	case !slices.Equal(a.Warnings, b.Warnings):
		return "warnings differ: " + strings.Join(a.Warnings, "; ") + " vs " + strings.Join(b.Warnings, "; ")
	}
	return ""
}

// checkAgainstSerial reads data with r's chunked reader in every chunk
// configuration and fails t unless each gives what the serial oracle
// gives: the same graph, or the same error message.
func checkAgainstSerial(t *testing.T, r chunkedReader, data []byte, cfg readConfig) {
	t.Helper()
	want, wantErr := r.serial(bytes.NewReader(data), cfg)
	for _, cc := range chunkConfigs {
		c := cfg
		c.Threads, c.chunkBytes = cc.threads, cc.chunkBytes
		got, err := r.chunked(bytes.NewReader(data), c)
		switch {
		case (err == nil) != (wantErr == nil):
			t.Fatalf("%s, %d threads, chunks of %d: error %v, serial %v\ninput %q", r.name, cc.threads, cc.chunkBytes, err, wantErr, data)
		case err != nil && err.Error() != wantErr.Error():
			t.Fatalf("%s, %d threads, chunks of %d: error\n  %v\nserial\n  %v\ninput %q", r.name, cc.threads, cc.chunkBytes, err, wantErr, data)
		case err == nil:
			if d := sameGraph(got, want); d != "" {
				t.Fatalf("%s, %d threads, chunks of %d: %s\ninput %q", r.name, cc.threads, cc.chunkBytes, d, data)
			}
		}
	}
}

func TestChunkedMatchesSerial(t *testing.T) {
	inputs := map[string][]string{
		"edgelist": {smallEdgeList, "", "\n\n", "# c\n", "1 2", "1 2\r\n3 4\r\n", "1 2\n3\n", "1,2\n,3,4\n", "+1 -2\n",
			"1 2\nfoo bar\n", "1 2.0\n", "1 9223372036854775808\n", "123456789012345678 1234567890123456789\n",
			"-9223372036854775808 9223372036854775807\n", "1\x00 2\n", "1 2 " + strings.Repeat("x", 300) + "\n3 4",
			"src,dst\n1,2\n", "  \t \n 5\t6 # note\n", "1 2\n3 4\n5 x\n7 y\n", "1 2\r", "1 -\n", "- 1\n",
			"1 2\n" + strings.Repeat("3 4\n", 50) + "bad\n", "4294967296 0\n1 2\n", "1000000 1\n2 3\n"},
		"dimacs": {smallGR, "", "c only\n", "p tw 3 1\n", "p tw 3 1\n1 2\n2 3\n", "p tw 3 2\n1 2\n", "1 2\np tw 2 1\n",
			"p tw 3 1\n1 4\n", "p tw 3 2\n1 2\n1 4\n", "p tw 3 1\n1 2\n1 4\n", "p tw 3 1\n1 2\nx y\n",
			"p tw 3 1\n1 2\np tw 3 1\n", "p sp 4 3\na 1 2 10\na 2 1 10\na 3 3 1\n", "p edge 3 2\ne 1 2\ne 2 3\n",
			"p edge 3 2\ne 1 2\ne 2\n", "p tw 3 1\na1 2\n", "p tw 3 1\n1,2\n", "p tw 3 2\r\n1 2\r\n2 3", "p tw 0 0\n",
			"p tw 3 1\n-1 2\n", "p tw 3 1\n+1 2\n", "p tw 3 1\n1 2 3 4\n", "p tw 5 4\n1 2\nc x\n\n2 3\n3 4\n4 5\n5 1\n",
			"p tw 5 2\n1 2\n2 3\n3 4\n4 5\n", "p tw 5 2\n1 2\n2 3\n3 9\n", "p tw 5 2\n1 2\n2 3\nbad\n", "p tw 5 3\n1 2\n2 3\n3 9\n"},
		"mtx": {smallMTX, "", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 1\n",
			"%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n1 2 0\n2 3 -4\n",
			"%%MatrixMarket matrix coordinate real general\n2 5 1\n1 5 1e400\n",
			"%%MatrixMarket matrix coordinate real general\n2 5 3\n1 5 1e-400\n1 2 -0.0\n2 2 .5\n",
			"%%MatrixMarket matrix coordinate real general\n2 5 3\n1 5 1.\n1 2 +0\n2 2 -.\n",
			"%%MatrixMarket matrix coordinate real general\n3 3 1\n4 1 1\n",
			"%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 1 1.5\n2 2 2\n",
			"%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 1 +0\n2 2 -0\n3 3 1\n",
			"%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n% c\n\n2 3\n",
			"%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n% c\n\n2 x\n",
			"%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 x\n",
			"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2\n2 3 1\n",
			"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 nan\n2 3 inf\n",
			"%%MatrixMarket matrix coordinate pattern general\n% c\n\n3 3 2\r\n1 2\r\n2 3",
			"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n"},
	}
	for _, r := range chunkedReaders {
		for _, in := range inputs[r.name] {
			for _, drop := range []bool{false, true} {
				for _, header := range []bool{false, true} {
					cfg := newConfig(ReadOptions{DropZeros: drop}, -1)
					cfg.csvHeader = header
					checkAgainstSerial(t, r, []byte(in), cfg)
				}
			}
		}
	}
}

func TestChunkedLargeInputs(t *testing.T) {
	// Many lines with comments, CRLF and errors placed near chunk ends.
	var el, gr, mm strings.Builder
	gr.WriteString("p tw 2000 3000\n")
	mm.WriteString("%%MatrixMarket matrix coordinate integer general\n2000 2000 3000\n")
	for i := range 3000 {
		u, v := i%2000+1, (i*7919)%2000+1
		el.WriteString(strings.Repeat(" ", i%3))
		el.WriteString(strconv.Itoa(u*1000003) + "\t" + strconv.Itoa(-v) + "\r\n")
		gr.WriteString(strconv.Itoa(u) + " " + strconv.Itoa(v) + "\n")
		mm.WriteString(strconv.Itoa(u) + " " + strconv.Itoa(v) + " " + strconv.Itoa(i%3) + "\n")
		if i%97 == 0 {
			el.WriteString("# note\n")
			gr.WriteString("c note\n")
			mm.WriteString("% note\n")
		}
	}
	texts := map[string]string{"edgelist": el.String(), "dimacs": gr.String(), "mtx": mm.String()}
	for _, r := range chunkedReaders {
		text := texts[r.name]
		checkAgainstSerial(t, r, []byte(text), newConfig(ReadOptions{DropZeros: true}, -1))
		// A bad line late in the input, and one line too many.
		lines := strings.SplitAfter(text, "\n")
		bad := slices.Clone(lines)
		bad[len(bad)-40] = "1 x\n"
		checkAgainstSerial(t, r, []byte(strings.Join(bad, "")), newConfig(ReadOptions{}, -1))
		checkAgainstSerial(t, r, []byte(text+"1 1 1\n"), newConfig(ReadOptions{}, -1))
	}
}

func TestChunkedReadError(t *testing.T) {
	boom := errors.New("boom")
	for _, r := range chunkedReaders {
		var text string
		switch r.name {
		case "edgelist":
			text = "1 2\n3 4\n5 6\n7 8"
		case "dimacs":
			text = "p tw 9 4\n1 2\n3 4\n5 6\n7 8"
		case "mtx":
			text = "%%MatrixMarket matrix coordinate pattern general\n9 9 4\n1 2\n3 4\n5 6\n7 8"
		}
		for cut := 0; cut <= len(text); cut++ {
			src := func() io.Reader {
				return io.MultiReader(iotest.HalfReader(strings.NewReader(text[:cut])), iotest.ErrReader(boom))
			}
			_, want := r.serial(src(), newConfig(ReadOptions{}, -1))
			for _, cc := range chunkConfigs {
				cfg := newConfig(ReadOptions{Threads: cc.threads}, -1)
				cfg.chunkBytes = cc.chunkBytes
				_, err := r.chunked(src(), cfg)
				if err == nil || err.Error() != want.Error() || !errors.Is(err, boom) && errors.Is(want, boom) {
					t.Fatalf("%s cut at %d, %+v: %v; serial %v", r.name, cut, cc, err, want)
				}
			}
		}
	}
}
