package graphio

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats/internal/fileio"
)

// fuzzMaxVertices keeps header-declared vertex counts small while fuzzing,
// so that each input stays cheap; everything else is as in the public
// readers.
const fuzzMaxVertices = 1 << 16

// fuzzRead runs read on data with the size known and unknown and checks
// the outcome: a one-line "formats: " error, or a valid symmetric graph,
// the same either way.
func fuzzRead(t *testing.T, data []byte, read func(data []byte, cfg readConfig) (*LoadedGraph, error)) *LoadedGraph {
	var results [2]*LoadedGraph
	var errs [2]error
	for i, size := range []int64{int64(len(data)), -1} {
		cfg := newConfig(ReadOptions{Threads: 1}, size)
		cfg.maxVertices = fuzzMaxVertices
		results[i], errs[i] = read(data, cfg)
		if err := errs[i]; err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "formats: ") || strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("error %q is not one line starting with \"formats: \"", msg)
			}
			continue
		}
		g := results[i].Graph
		if err := g.Validate(); err != nil {
			t.Fatalf("reader returned an invalid graph: %v", err)
		}
		if !g.IsSymmetric(1) {
			t.Fatal("reader returned an asymmetric graph")
		}
	}
	if (errs[0] == nil) != (errs[1] == nil) {
		t.Fatalf("size known: %v; size unknown: %v", errs[0], errs[1])
	}
	if errs[0] == nil {
		a, b := results[0].Graph, results[1].Graph
		if !slices.Equal(a.Offsets, b.Offsets) || !slices.Equal(a.Neighbors, b.Neighbors) {
			t.Fatal("size known and unknown give different graphs")
		}
	}
	return results[0]
}

// addSeeds adds each seed to the fuzzer's corpus.
func addSeeds(f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
}

func FuzzReadEGR(f *testing.F) {
	f.Add(smallEGR)
	f.Add(append(slices.Clone(smallEGR), egrBytes(1, 2, 3, 4, 5, 6, 7, 8)...))
	f.Add(egrBytes(4, 5, 0, 1, 1, 2, 5, 1, 1, 2, 0, 2))
	f.Add(egrBytes(0, 0, 0))
	f.Add(egrBytes(2000000000, 2000000000, 0))
	f.Add(egrBytes(2, 2, 0, 1, 2, 1, 7))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRead(t, data, func(data []byte, cfg readConfig) (*LoadedGraph, error) {
			return readEGR(bytes.NewReader(data), cfg, egr32)
		})
	})
}

func FuzzReadEGR64(f *testing.F) {
	f.Add(egr64Bytes(4, 5, 0, 1, 1, 2, 5, 1, 1, 2, 0, 2))
	f.Add(egr64Bytes(0, 0, 0))
	f.Add(egr64Bytes(1<<40, 1<<40, 0))
	f.Add(egr64Bytes(2, 2, 0, 1, 2, 1, 7))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRead(t, data, func(data []byte, cfg readConfig) (*LoadedGraph, error) {
			return readEGR(bytes.NewReader(data), cfg, egr64)
		})
	})
}

func FuzzReadMatrixMarket(f *testing.F) {
	addSeeds(f, smallMTX,
		"%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 1\n",
		"%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n1 2 0\n2 3 -4\n",
		"%%MatrixMarket matrix coordinate real general\n2 5 1\n1 5 1e400\n",
		"%%MatrixMarket matrix coordinate real general\n3 3 1\n4 1 1\n",
		"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, drop := range []bool{false, true} {
			lg := fuzzRead(t, data, func(data []byte, cfg readConfig) (*LoadedGraph, error) {
				cfg.DropZeros = drop
				return readMatrixMarket(bytes.NewReader(data), cfg)
			})
			if lg != nil && (lg.Base != 1 || lg.IDs != nil) {
				t.Fatalf("Base %d, IDs %v", lg.Base, lg.IDs)
			}
		}
	})
}

func FuzzReadEdgeList(f *testing.F) {
	addSeeds(f, smallEdgeList, "src,dst\n1,2\n2,3\n", "5 3\n3 4\n7 8\n", "1 2\nfoo bar\n",
		"-9223372036854775808 9223372036854775807\n", "# only a comment\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, header := range []bool{false, true} {
			lg := fuzzRead(t, data, func(data []byte, cfg readConfig) (*LoadedGraph, error) {
				cfg.csvHeader = header
				return readEdgeList(bytes.NewReader(data), cfg)
			})
			if lg == nil {
				continue
			}
			if len(lg.IDs) != lg.Graph.NumVertices() || len(lg.IDs) == 0 {
				t.Fatalf("%d IDs for %d vertices", len(lg.IDs), lg.Graph.NumVertices())
			}
			for i := 1; i < len(lg.IDs); i++ {
				if lg.IDs[i] <= lg.IDs[i-1] {
					t.Fatalf("IDs not strictly ascending: %v", lg.IDs)
				}
			}
		}
	})
}

func FuzzReadDIMACS(f *testing.F) {
	addSeeds(f, smallGR, "p sp 4 3\na 1 2 10\na 2 1 10\na 3 3 1\n", "p edge 3 2\ne 1 2\ne 2 3\n",
		"1 2\np tw 2 1\n", "p tw 3 1\n1 4\n", "p tw 0 0\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		lg := fuzzRead(t, data, func(data []byte, cfg readConfig) (*LoadedGraph, error) {
			return readDIMACS(bytes.NewReader(data), cfg)
		})
		if lg != nil && (lg.Base != 1 || lg.IDs != nil) {
			t.Fatalf("Base %d, IDs %v", lg.Base, lg.IDs)
		}
	})
}

// fuzzChunked checks a chunked reader against its serial oracle on data
// in every chunk configuration, with the size known.
func fuzzChunked(t *testing.T, r chunkedReader, data []byte, mod func(*readConfig)) {
	cfg := newConfig(ReadOptions{}, int64(len(data)))
	cfg.maxVertices = fuzzMaxVertices
	mod(&cfg)
	checkAgainstSerial(t, r, data, cfg)
}

func FuzzChunkedEdgeList(f *testing.F) {
	addSeeds(f, smallEdgeList, "src,dst\n1,2\n2,3\n", "1 2\r\n3 4\r\n5 x\n", "+1 -2\n 3,,4\n",
		"123456789012345678 1234567890123456789\n", "# c\n\n1 2")
	f.Fuzz(func(t *testing.T, data []byte) {
		header := len(data) > 0 && data[0]&1 == 1
		fuzzChunked(t, chunkedReaders[0], data, func(c *readConfig) { c.csvHeader = header })
	})
}

func FuzzChunkedDIMACS(f *testing.F) {
	addSeeds(f, smallGR, "p sp 4 3\na 1 2 10\na 2 1 10\na 3 3 1\n", "p edge 3 2\ne 1 2\ne 2 3\n",
		"p tw 3 1\n1 2\n1 4\n", "p tw 3 2\n1 2\np tw 3 1\n", "p tw 5 2\r\n1 2\r\nc\n2 3\n3 9")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzChunked(t, chunkedReaders[1], data, func(*readConfig) {})
	})
}

func FuzzChunkedMatrixMarket(f *testing.F) {
	addSeeds(f, smallMTX,
		"%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n1 2 0\n2 3 -4\n",
		"%%MatrixMarket matrix coordinate real general\n2 5 3\n1 5 1e-400\n1 2 -0.0\n2 2 .5\n",
		"%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n% c\n\n2 x\n",
		"%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 1 +0\n2 2 -0\n3 3 1\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		drop := len(data) > 0 && data[len(data)-1]&1 == 1
		fuzzChunked(t, chunkedReaders[2], data, func(c *readConfig) { c.DropZeros = drop })
	})
}

func FuzzReadCompressed(f *testing.F) {
	for _, m := range []fileio.Compression{fileio.Gzip, fileio.Zstd, fileio.XZ} {
		f.Add(compress(f, []byte(smallEdgeList), m))
	}
	if bz, err := os.ReadFile("../internal/fileio/testdata/edges.txt.bz2"); err == nil {
		f.Add(bz)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// Whatever the bytes, a one-line "formats: " error or a valid
		// graph, as for plain text.
		fuzzRead(t, data, func(data []byte, cfg readConfig) (*LoadedGraph, error) {
			return readStream(bytes.NewReader(data), fileio.Uncompressed, FormatEdgeList, cfg)
		})
	})
}
