package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/internal/testkit"
)

// TestGraphSharedDataAlgorithmsAndForests labels every graph of the shared
// data with every CPU algorithm and backend, checks the published counts,
// and writes and verifies (--verify reads the file back) a spanning forest
// of each as .txt and .npy.
func TestGraphSharedDataAlgorithmsAndForests(t *testing.T) {
	for _, c := range testkit.Graphs(t) {
		t.Run(filepath.Base(c.File), func(t *testing.T) {
			path := sharedData(t, c.File)
			algos, backends := []string{"auto", "ecl", "afforest", "eclaf"}, []string{"cpu", "serial"}
			forestAlgos, exts := []string{"ecl", "afforest"}, []string{".txt", ".npy"}
			labelAlgos := algos
			if testing.Short() { // the race detector's run: fewer runs
				algos, backends, labelAlgos = []string{"afforest"}, []string{"cpu"}, []string{"ecl", "afforest"}
				forestAlgos, exts = []string{"auto"}, []string{".npy"}
			}
			for _, algo := range algos {
				for _, backend := range backends {
					s := graphJSON(t, path, "--algo", algo, "--backend", backend, "--threads", "3")
					if s.Components != c.Components || s.Largest != c.Largest {
						t.Errorf("%s %s: %d components, largest %d; want %d, %d",
							algo, backend, s.Components, s.Largest, c.Components, c.Largest)
					}
				}
			}
			dir := t.TempDir()
			// Same labels, byte for byte, whatever the algorithm.
			var first []byte
			for _, algo := range labelAlgos {
				out := filepath.Join(dir, algo+".npy")
				if r := runCLI(t, "", "graph", path, "--algo", algo, "--labels", out); r.code != 0 {
					t.Fatalf("%s: exit %d: %s", algo, r.code, r.stderr)
				}
				got, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				if first == nil {
					first = got
				} else if !bytes.Equal(got, first) {
					t.Errorf("%s: labels differ from ecl's", algo)
				}
			}
			for _, algo := range forestAlgos {
				for _, ext := range exts {
					out := filepath.Join(dir, "forest"+ext)
					s := graphJSON(t, path, "--algo", algo, "--forest", out, "--verify")
					if s.Forest == nil || !s.Forest.Verified || s.Forest.Edges != c.Vertices-c.Components {
						t.Errorf("%s %s: forest %+v, want %d edges verified", algo, ext, s.Forest, c.Vertices-c.Components)
					}
				}
			}
		})
	}
}

// TestGraphForestGenerated writes and verifies forests of generated grid,
// random and R-MAT graphs.
func TestGraphForestGenerated(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"grid", "--width", "120", "--height", "90"},
		{"random", "--vertices", "20000", "--degree", "1"},
		{"rmat", "--scale", "12", "--edge-factor", "4"},
	} {
		in := filepath.Join(dir, args[0]+".egr")
		if r := runCLI(t, "", append(append([]string{"gen", "graph"}, args...), "-o", in)...); r.code != 0 {
			t.Fatalf("gen %v: exit %d: %s", args, r.code, r.stderr)
		}
		for _, backend := range []string{"cpu", "serial"} {
			out := filepath.Join(dir, args[0]+"-"+backend+".txt")
			s := graphJSON(t, in, "--backend", backend, "--forest", out, "--verify")
			if s.Forest == nil || s.Forest.Edges != s.Vertices-s.Components {
				t.Errorf("%s %s: forest %+v for %d vertices, %d components", args[0], backend, s.Forest, s.Vertices, s.Components)
			}
		}
	}
}

func TestGraphForestVerifyCatchesBadFile(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "g.mtx")
	os.WriteFile(in, []byte("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n"), 0o644)
	out := filepath.Join(dir, "f.txt")
	if r := runCLI(t, "", "graph", in, "--forest", out); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	got, _ := os.ReadFile(out)
	if string(got) != "1 2\n2 3\n" {
		t.Fatalf("forest file %q, want 1-based IDs", got)
	}
	if r := runCLI(t, "", "graph", in, "--forest", filepath.Join(dir, "f.png")); r.code != 2 {
		t.Errorf("--forest .png: exit %d, want 2", r.code)
	}
	if r := runCLI(t, "", "graph", in, "--forest", filepath.Join(dir, "f.txt"), "--algo", "eclaf"); r.code != 1 {
		t.Errorf("--forest with eclaf: exit %d, want 1", r.code)
	}
}

// TestGraphUpdatesRandomized replays random insertions and queries on
// random edge-list graphs (arbitrary file IDs) and compares every answer
// with a breadth-first search of all the edges so far.
func TestGraphUpdatesRandomized(t *testing.T) {
	seeds := 12
	if testing.Short() {
		seeds = 4
	}
	dir := t.TempDir()
	gpu := cclabel.Devices().Available
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 5))
		n := 2 + rng.IntN(400)
		fileID := func(v int) int { return 1000 + 7*v } // edge lists keep the file's IDs
		var us, vs []int32
		var graph strings.Builder
		for v := range n { // every vertex appears: a self-loop keeps isolated ones
			fmt.Fprintf(&graph, "%d %d\n", fileID(v), fileID(v))
		}
		for range rng.IntN(n) {
			a, b := rng.IntN(n), rng.IntN(n)
			us, vs = append(us, int32(a)), append(vs, int32(b))
			fmt.Fprintf(&graph, "%d %d\n", fileID(a), fileID(b))
		}
		in := filepath.Join(dir, fmt.Sprintf("g%d.txt", seed))
		os.WriteFile(in, []byte(graph.String()), 0o644)
		var updates, want strings.Builder
		updates.WriteString("# random updates\n")
		for range 1 + rng.IntN(6) {
			for range rng.IntN(n) {
				a, b := rng.IntN(n), rng.IntN(n)
				us, vs = append(us, int32(a)), append(vs, int32(b))
				fmt.Fprintf(&updates, "i %d %d\n", fileID(a), fileID(b))
			}
			g, err := ecl.FromEdges(n, us, vs)
			if err != nil {
				t.Fatal(err)
			}
			rep := ecl.ComponentsBFS(g)
			for range 1 + rng.IntN(20) {
				a, b := rng.IntN(n), rng.IntN(n)
				if rng.IntN(3) == 0 {
					fmt.Fprintf(&updates, "c\t%d  # component\n", fileID(a))
					fmt.Fprintf(&want, "%d\n", fileID(int(rep[a])))
					continue
				}
				fmt.Fprintf(&updates, "q %d %d\n", fileID(a), fileID(b))
				answer := 0
				if rep[a] == rep[b] {
					answer = 1
				}
				fmt.Fprintf(&want, "%d\n", answer)
			}
		}
		upd := filepath.Join(dir, fmt.Sprintf("u%d.txt", seed))
		os.WriteFile(upd, []byte(updates.String()), 0o644)
		r := runCLI(t, "", "graph", in, "--updates", upd, "--threads", fmt.Sprint(1+seed%3))
		if r.code != 0 {
			t.Fatalf("seed %d: exit %d: %s", seed, r.code, r.stderr)
		}
		if r.stdout != want.String() {
			t.Fatalf("seed %d: answers\n%s\nwant\n%s", seed, r.stdout, want.String())
		}
		// The same through --answers FILE and --json.
		ans := filepath.Join(dir, "answers.txt")
		s := graphJSON(t, in, "--updates", upd, "--answers", ans)
		if got, _ := os.ReadFile(ans); string(got) != want.String() || s.Updates == nil || s.Updates.Backend != "cpu" {
			t.Fatalf("seed %d: --answers file differs (summary %+v)", seed, s.Updates)
		}
		if gpu {
			s := graphJSON(t, in, "--updates", upd, "--answers", ans, "--backend", "gpu")
			if got, _ := os.ReadFile(ans); string(got) != want.String() || s.Updates == nil || s.Updates.Backend != "gpu" {
				t.Fatalf("seed %d: GPU answers differ (summary %+v)\n%s", seed, s.Updates, got)
			}
		}
	}
}

func TestGraphUpdatesErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "g.mtx")
	os.WriteFile(in, []byte("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n2 1\n"), 0o644)
	upd := filepath.Join(dir, "u.txt")
	for _, tc := range []struct{ content, want string }{
		{"i 1 2\nx 1 2\n", "line 2: unknown operation"},
		{"# c\n\nq 1 4\n", "line 3: vertex ID 4 is not a vertex"},
		{"q 0 1\n", "line 1: vertex ID 0 is not a vertex"},
		{"i 1\n", "line 1: \"i\" wants 2 vertex IDs"},
		{"c 1 2\n", "line 1: \"c\" wants 1 vertex IDs"},
		{"q 1 two\n", "line 1: vertex ID \"two\": not an integer"},
	} {
		os.WriteFile(upd, []byte(tc.content), 0o644)
		r := runCLI(t, "", "graph", in, "--updates", upd)
		if r.code != 1 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 1 and %q", tc.content, r.code, r.stderr, tc.want)
		}
	}
	os.WriteFile(upd, []byte("q 1 3\ni 3 2\nq 1 3\nc 3\n"), 0o644)
	if r := runCLI(t, "", "graph", in, "--updates", upd); r.code != 0 || r.stdout != "0\n1\n1\n" {
		t.Errorf("exit %d, answers %q: %s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, "q 1 2\n", "graph", in, "--updates", "-"); r.code != 0 || r.stdout != "1\n" {
		t.Errorf("stdin updates: exit %d, answers %q: %s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, "", "graph", in, "--updates", upd, "--json"); r.code != 2 {
		t.Errorf("--updates with --json on stdout: exit %d, want 2", r.code)
	}
}
