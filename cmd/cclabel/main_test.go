package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/internal/testkit"
	"github.com/cclabel/cclabel/job"
)

// cliResult is the outcome of one in-process run of the CLI.
type cliResult struct {
	code   int
	stdout string
	stderr string
}

// runCLI runs cclabel with args (without the program name).
func runCLI(t *testing.T, stdin string, args ...string) cliResult {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), append([]string{"cclabel"}, args...),
		stdio{In: strings.NewReader(stdin), Out: &out, Err: &errOut})
	return cliResult{code, out.String(), errOut.String()}
}

// sharedData returns the path of a file under the shared data folder,
// skipping the test when it is absent.
func sharedData(t *testing.T, rel string) string {
	t.Helper()
	path := filepath.Join(testkit.Dir(t), rel)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	return path
}

func TestGraphSharedDataThroughCLI(t *testing.T) {
	cases := testkit.Graphs(t)
	if len(cases) != 14 {
		t.Fatalf("graphs.json lists %d graphs, want 14", len(cases))
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.File), func(t *testing.T) {
			path := sharedData(t, c.File)
			for _, backend := range []string{"cpu", "serial"} {
				s := graphJSON(t, path, "--backend", backend, "--verify")
				if s.Components != c.Components || s.Vertices != c.Vertices || s.Largest != c.Largest {
					t.Errorf("%s: got %d components, %d vertices, largest %d; want %d, %d, %d",
						backend, s.Components, s.Vertices, s.Largest, c.Components, c.Vertices, c.Largest)
				}
			}
			s := graphJSON(t, path, "--algo", "eclaf", "--threads", "3")
			if s.Components != c.Components {
				t.Errorf("eclaf: %d components, want %d", s.Components, c.Components)
			}
			if c.ComponentsDropZeros != 0 {
				s := graphJSON(t, path, "--drop-zeros")
				if s.Components != c.ComponentsDropZeros {
					t.Errorf("--drop-zeros: %d components, want %d", s.Components, c.ComponentsDropZeros)
				}
			}
		})
	}
}

// graphJSON runs "cclabel graph PATH --json ARGS..." and decodes the summary.
func graphJSON(t *testing.T, path string, args ...string) job.GraphSummary {
	t.Helper()
	r := runCLI(t, "", append([]string{"graph", path, "--json"}, args...)...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var s job.GraphSummary
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
		t.Fatalf("bad JSON %q: %v", r.stdout, err)
	}
	if s.Input != path || s.Backend == "" || s.Seconds.Total < s.Seconds.Label {
		t.Fatalf("incomplete summary %+v", s)
	}
	// label_seconds splits the label stage: its parts add up to it.
	st := s.LabelStages
	sum := st.GPUSetup + st.Allocate + st.Upload + st.Kernel + st.Download + st.Join + st.Other
	if (s.Vertices > 0 && st.Kernel <= 0) || sum > s.Seconds.Label*1.05+1e-4 {
		t.Fatalf("label_seconds %+v do not split a label stage of %gs", st, s.Seconds.Label)
	}
	return s
}

func TestGraphLabelsOutputs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "g.el")
	os.WriteFile(in, []byte("% comment\n30 10\n10 20\n40 50\n"), 0o644)
	txt := filepath.Join(dir, "labels.txt")
	if r := runCLI(t, "", "graph", in, "--labels", txt); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	got, _ := os.ReadFile(txt)
	if want := "10 1\n20 1\n30 1\n40 2\n50 2\n"; string(got) != want {
		t.Fatalf("labels.txt = %q, want %q", got, want)
	}
	npy := filepath.Join(dir, "labels.npy")
	if r := runCLI(t, "", "graph", in, "--labels", npy, "--backend", "serial"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	raw, _ := os.ReadFile(npy)
	if !bytes.HasPrefix(raw, []byte("\x93NUMPY\x01\x00")) || len(raw)%4 != 0 {
		t.Fatalf("not an npy file: %q", raw[:min(len(raw), 16)])
	}
	hlen := int(binary.LittleEndian.Uint16(raw[8:]))
	header := string(raw[10 : 10+hlen])
	if !strings.Contains(header, "'descr': '<i4'") || !strings.Contains(header, "'shape': (5,)") {
		t.Fatalf("npy header %q", header)
	}
	body := raw[10+hlen:]
	var labels []int32
	for i := 0; i < len(body); i += 4 {
		labels = append(labels, int32(binary.LittleEndian.Uint32(body[i:])))
	}
	if want := []int32{1, 1, 1, 2, 2}; !equalInts(labels, want) {
		t.Fatalf("npy labels %v, want %v", labels, want)
	}
	// Labels to stdout, input from stdin.
	r := runCLI(t, "1 2\n3 4\n", "graph", "-", "--format", "edgelist", "--labels", "-")
	if r.code != 0 || r.stdout != "1 1\n2 1\n3 2\n4 2\n" {
		t.Fatalf("stdin/stdout run: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

func equalInts(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// egrBytes encodes an .egr file from raw header and arrays.
func egrBytes(nodes, edges int32, offsets, nbrs []int32) []byte {
	var b []byte
	for _, v := range append(append([]int32{nodes, edges}, offsets...), nbrs...) {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	return b
}

func TestGraphBadInput(t *testing.T) {
	dir := t.TempDir()
	valid := egrBytes(2, 2, []int32{0, 1, 2}, []int32{1, 0})
	files := map[string][]byte{
		"truncated.egr":      valid[:len(valid)-3],
		"lying-header.egr":   egrBytes(1000000, 5, []int32{0, 1}, nil),
		"non-monotone.egr":   egrBytes(2, 2, []int32{0, 2, 1}, []int32{1, 0}),
		"out-of-range.egr":   egrBytes(2, 2, []int32{0, 1, 2}, []int32{7, 0}),
		"bad-header.mtx":     []byte("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n"),
		"bad-size.mtx":       []byte("%%MatrixMarket matrix coordinate pattern general\n2 x 1\n1 2\n"),
		"garbage.txt":        []byte("1 2\n2 3\nhello world\n"),
		"empty.txt":          nil,
		"empty.egr":          nil,
		"unknown.xyz":        []byte("1 2\n"),
		"gr-out-of-range.gr": []byte("p sp 2 1\na 1 3 1\n"),
	}
	for name, data := range files {
		t.Run(name, func(t *testing.T) {
			in := filepath.Join(dir, name)
			if err := os.WriteFile(in, data, 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, name+".labels.txt")
			r := runCLI(t, "", "graph", in, "--labels", out)
			assertCleanFailure(t, r, in)
			if _, err := os.Stat(out); err == nil {
				t.Errorf("partial output %s left behind", out)
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		in := filepath.Join(dir, "missing.egr")
		assertCleanFailure(t, runCLI(t, "", "graph", in), in)
	})
	t.Run("missing output folder", func(t *testing.T) {
		in := filepath.Join(dir, "ok.egr")
		os.WriteFile(in, valid, 0o644)
		out := filepath.Join(dir, "nope", "labels.txt")
		assertCleanFailure(t, runCLI(t, "", "graph", in, "--labels", out), out)
	})
	assertNoTempFiles(t, dir)
}

// assertCleanFailure checks for exit status 1 and a one-line error that
// names the file, without a Go stack trace.
func assertCleanFailure(t *testing.T, r cliResult, name string) {
	t.Helper()
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (stderr %q)", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "cclabel: ") || !strings.Contains(lines[0], name) {
		t.Fatalf("want one 'cclabel: ...' line naming %s, got %q", name, r.stderr)
	}
	if strings.Contains(r.stderr, "goroutine") || strings.Contains(r.stderr, "panic") {
		t.Fatalf("stack trace in %q", r.stderr)
	}
}

// assertNoTempFiles fails when a temporary output file is left in dir.
func assertNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"graph"},
		{"graph", "a.egr", "b.egr"},
		{"graph", "x.egr", "--algo", "dfs"},
		{"graph", "x.egr", "--backend", "quantum"},
		{"graph", "x.egr", "--threads", "-2"},
		{"graph", "x.egr", "--labels", "out.png"},
		{"graph", "--no-such-flag", "x.egr"},
		{"graph", "-", "--format", "bogus"},
		{"gen", "graph", "grid"},
		{"gen", "graph", "grid", "-o", "x.txt"},
		{"gen", "graph", "random", "--vertices", "1", "-o", "x.egr"},
		{"convert", "a.mtx"},
		{"no-such-command"},
	} {
		r := runCLI(t, "", args...)
		if r.code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", args, r.code, r.stderr)
		}
	}
}

func TestGenGraphDeterministic(t *testing.T) {
	dir := t.TempDir()
	gen := func(name string, args ...string) []byte {
		t.Helper()
		out := filepath.Join(dir, name)
		r := runCLI(t, "", append(append([]string{"gen", "graph"}, args...), "-o", out)...)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a := gen("a.egr", "random", "--vertices", "5000", "--degree", "2", "--seed", "9")
	b := gen("b.egr", "random", "--vertices", "5000", "--degree", "2", "--seed", "9")
	c := gen("c.egr", "random", "--vertices", "5000", "--degree", "2", "--seed", "10")
	if !bytes.Equal(a, b) || bytes.Equal(a, c) {
		t.Fatal("random graphs are not determined by their seed")
	}
	r1 := gen("r1.egr", "rmat", "--scale", "10", "--edge-factor", "4", "--seed", "3")
	r2 := gen("r2.egr", "rmat", "--scale", "10", "--edge-factor", "4", "--seed", "3")
	if !bytes.Equal(r1, r2) {
		t.Fatal("R-MAT graphs are not determined by their seed")
	}
	gen("grid.egr", "grid", "--width", "7", "--height", "5")
	s := graphJSON(t, filepath.Join(dir, "grid.egr"), "--verify")
	if s.Vertices != 35 || s.Edges != 2*(6*5+7*4) || s.Components != 1 {
		t.Fatalf("grid summary %+v", s)
	}
}

func TestConvertRoundTrip(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "g.mtx")
	os.WriteFile(in, []byte("%%MatrixMarket matrix coordinate real symmetric\n5 5 3\n2 1 1.5\n4 3 0\n5 5 2\n"), 0o644)
	out := filepath.Join(dir, "g.egr")
	if r := runCLI(t, "", "convert", in, out); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if s := graphJSON(t, out); s.Components != 3 || s.Vertices != 5 || s.Edges != 4 {
		t.Fatalf("converted graph summary %+v", s)
	}
	dropped := filepath.Join(dir, "dropped.egr")
	if r := runCLI(t, "", "convert", "--drop-zeros", in, dropped); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if s := graphJSON(t, dropped); s.Components != 4 {
		t.Fatalf("--drop-zeros conversion: %d components, want 4", s.Components)
	}
}
