package testkit

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Case is one entry of expected.json: a data file and its expected labeling.
// It names a file under the data folder, the labeling mode and connectivity,
// and the expected component count and label hash (see [LabelsSHA256]); Shape
// is the array shape where given.
type Case struct {
	File         string `json:"file"`
	Mode         string `json:"mode"`
	Connectivity int    `json:"connectivity"`
	Components   int    `json:"components"`
	SHA256       string `json:"sha256"`
	Shape        []int  `json:"shape"`
}

// Dir returns the shared data folder, skipping tb when it has no data. It is
// $CCLABEL_SHARED_DATA when set (on machines where ../shared does not
// travel), else shared/data beside the folder holding go.mod. It skips tb
// when the folder has no expected.json.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir, err := find()
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "expected.json"))
	}
	if err != nil {
		tb.Skipf("shared data not available: %v", err)
	}
	return dir
}

// Path returns the path of rel under the shared data folder. It does not
// check that it exists (callers that can do without it stat it), and returns
// "" when the folder cannot be located.
func Path(rel string) string {
	dir, err := find()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, rel)
}

// find locates the data folder without checking its contents.
func find() (string, error) {
	if dir := os.Getenv("CCLABEL_SHARED_DATA"); dir != "" {
		return dir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("testkit: %w", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "data"), nil
		}
		if filepath.Dir(dir) == dir {
			return "", errors.New("testkit: no go.mod above " + wd)
		}
	}
}

// Cases returns the cases of expected.json that keep accepts. It returns all
// when keep is nil, skipping tb when the data is absent and failing it when
// the file does not parse.
func Cases(tb testing.TB, keep func(Case) bool) []Case {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(Dir(tb), "expected.json"))
	if err != nil {
		tb.Fatalf("testkit: %v", err)
	}
	var all []Case
	if err := json.Unmarshal(raw, &all); err != nil {
		tb.Fatalf("testkit: expected.json: %v", err)
	}
	var out []Case
	for _, c := range all {
		if keep == nil || keep(c) {
			out = append(out, c)
		}
	}
	return out
}

// GraphCase is one entry of graphs.json: a graph file and its expected
// counts. It gives the expected vertex and component counts, largest
// component, and component count when zero-valued entries are dropped (Matrix
// Market).
type GraphCase struct {
	File                string `json:"file"`
	Vertices            int    `json:"vertices"`
	Components          int    `json:"components"`
	Largest             int64  `json:"largest"`
	ComponentsDropZeros int    `json:"components_drop_zeros"`
}

// Graphs returns the cases of graphs.json. It skips tb when the data is
// absent and fails it when the file does not parse.
func Graphs(tb testing.TB) []GraphCase {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(Dir(tb), "graphs.json"))
	if err != nil {
		tb.Fatalf("testkit: %v", err)
	}
	var cases []GraphCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		tb.Fatalf("testkit: graphs.json: %v", err)
	}
	return cases
}

// LabelsSHA256 hashes labels as expected.json does. It hashes uint32
// little-endian in memory order, the frames of a 4D file one after another.
func LabelsSHA256(frames ...[]uint32) string {
	h := sha256.New()
	buf := make([]byte, 0, 1<<16)
	for _, labels := range frames {
		for _, l := range labels {
			buf = binary.LittleEndian.AppendUint32(buf, l)
			if len(buf) == cap(buf) {
				h.Write(buf)
				buf = buf[:0]
			}
		}
	}
	h.Write(buf)
	return hex.EncodeToString(h.Sum(nil))
}
