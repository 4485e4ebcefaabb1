package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/internal/atomicfile"
)

// tree returns the bytes of every file below root, by path relative to
// root.
func tree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		data, rerr := os.ReadFile(path)
		if rerr != nil {
			t.Fatal(rerr)
		}
		files[rel] = data
		return nil
	})
	return files
}

// assertSameTree fails unless root holds exactly the files of want.
func assertSameTree(t *testing.T, root string, want map[string][]byte, what string) {
	t.Helper()
	got := tree(t, root)
	if !slices.Equal(slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want))) {
		t.Fatalf("%s: files %v, want %v", what, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	for name, data := range want {
		if !bytes.Equal(got[name], data) {
			t.Errorf("%s: %s changed", what, name)
		}
	}
}

// assertNoLeftovers fails when a temporary file or a claim is left below
// root.
func assertNoLeftovers(t *testing.T, root string) {
	t.Helper()
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && (atomicfile.IsTemp(d.Name()) || strings.HasSuffix(d.Name(), ".claim")) {
			t.Errorf("left behind: %s", path)
		}
		return nil
	})
}

// lostFixture makes the inputs of the nothing-lost tests in dir/in: a
// 2D mask, a 3D NIfTI volume and its chunks, a 3D .npy, a text graph and
// updates for it.
func lostFixture(t *testing.T, dir string) string {
	t.Helper()
	in := filepath.Join(dir, "in")
	os.MkdirAll(in, 0o755)
	for _, args := range [][]string{
		{"gen", "image", "--size", "48x40", "--density", "0.5", "--seed", "3", "-o", filepath.Join(in, "a.png")},
		{"gen", "image", "--size", "30x20", "--density", "0.5", "--seed", "4", "-o", filepath.Join(in, "b.png")},
		{"gen", "volume", "--size", "24,20,16", "--kind", "blobs", "--density", "0.4", "--seed", "5", "-o", filepath.Join(in, "v.nii.gz")},
		{"gen", "volume", "--size", "16,12,10", "--density", "0.4", "--seed", "6", "-o", filepath.Join(in, "w.npy")},
		{"gen", "graph", "grid", "--width", "30", "--height", "20", "-o", filepath.Join(in, "g.egr")},
		{"convert", filepath.Join(in, "g.egr"), filepath.Join(in, "g2.egr")},
		{"volume", filepath.Join(in, "v.nii.gz"), "--binary", "--chunk", "0/2", "-o", filepath.Join(in, "chunks"), "-q"},
		{"volume", filepath.Join(in, "v.nii.gz"), "--binary", "--chunk", "1/2", "-o", filepath.Join(in, "chunks"), "-q"},
	} {
		if r := runCLI(t, "", args...); r.code != 0 {
			t.Fatalf("%v: %s", args, r.stderr)
		}
	}
	os.WriteFile(filepath.Join(in, "g.txt"), []byte("0 1\n1 2\n3 4\n5 5\n6 7\n"), 0o644)
	os.WriteFile(filepath.Join(in, "u.txt"), []byte("q 0 2\ni 2 3\nq 0 4\nc 7\n"), 0o644)
	return in
}

// TestOutputNeverReplacesInput: every command refuses, before any work
// and with a usage error naming both files, an output that is an input or
// another output, in every spelling; the inputs are left byte for byte.
func TestOutputNeverReplacesInput(t *testing.T) {
	dir := t.TempDir()
	in := lostFixture(t, dir)
	p := func(name string) string { return filepath.Join(in, name) }
	os.Symlink(p("a.png"), filepath.Join(dir, "link.png"))
	for _, name := range []string{"s1.csv", "s2.csv"} {
		os.WriteFile(p(name), []byte("input,output,status,error,components,voxels,seconds\n"), 0o644)
	}
	before := tree(t, in)
	for _, c := range []struct {
		name string
		args []string
		want string // in the message, besides the command
	}{
		{"label into the inputs' folder", []string{"label", p("a.png"), p("b.png"), "-o", in},
			"-o " + p("a.png") + " would replace the input " + p("a.png")},
		{"label over its input", []string{"label", p("a.png"), "-o", p("a.png")}, "would replace the input " + p("a.png")},
		{"label over its input, spelled otherwise", []string{"label", p("a.png"), "-o", filepath.Join(in, "chunks", "..", "a.png")}, "would replace the input"},
		{"label over its input through a link", []string{"label", filepath.Join(dir, "link.png"), "-o", p("a.png")}, "would replace the input"},
		{"label labels over its input", []string{"label", p("a.png"), "--labels", p("a.png")}, "--labels " + p("a.png") + " would replace"},
		{"label's two outputs", []string{"label", p("a.png"), "-o", p("o.png"), "--labels", p("o.png")},
			"-o " + p("o.png") + " and --labels " + p("o.png") + " are the same file"},
		{"volume into the inputs' folder", []string{"volume", p("v.nii.gz"), p("w.npy"), "--binary", "-c", "6", "-o", in + "/"},
			"-o " + p("v.nii.gz") + " would replace the input " + p("v.nii.gz")},
		{"volume over its input", []string{"volume", p("w.npy"), "-o", p("w.npy")}, "would replace the input " + p("w.npy")},
		{"volume's two outputs", []string{"volume", p("w.npy"), "-o", p("o.nii.gz"), "--labels", p("o.nii.gz")}, "are the same file"},
		{"graph labels over its input", []string{"graph", p("g.txt"), "--labels", p("g.txt")}, "--labels " + p("g.txt") + " would replace the input"},
		{"graph forest over its labels", []string{"graph", p("g.txt"), "--labels", p("o.txt"), "--forest", p("o.txt")}, "are the same file"},
		{"graph answers over its updates", []string{"graph", p("g.txt"), "--updates", p("u.txt"), "--answers", p("u.txt")}, "--answers " + p("u.txt") + " would replace the input"},
		{"convert over its input", []string{"convert", p("g.egr"), p("g.egr")}, "OUT " + p("g.egr") + " would replace the input"},
		{"merge over its volume", []string{"merge", p("w.npy"), p("chunks"), "-o", p("w.npy")}, "would replace the input " + p("w.npy")},
		{"batch merged summary over a summary", []string{"batch", "--merge-summaries", p("s1.csv"), p("s1.csv"), p("s2.csv")},
			"--merge-summaries " + p("s1.csv") + " would replace the input " + p("s1.csv")},
		{"batch summary over an output", []string{"batch", p("a.png"), "-o", filepath.Join(dir, "out"), "--stats", ".csv", "--summary", filepath.Join(dir, "out", "a.stats.csv")},
			"and --summary " + filepath.Join(dir, "out", "a.stats.csv") + " are the same file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runCLI(t, "", c.args...)
			if r.code != 2 || !strings.Contains(r.stderr, c.want) || strings.Count(r.stderr, "\n") != 1 {
				t.Fatalf("exit %d, stderr %q; want 2 and one line with %q", r.code, r.stderr, c.want)
			}
			assertSameTree(t, in, before, "inputs")
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("batch made its output folder before refusing")
	}
}

// TestWriteFaultsLeaveNothing: with every output's writes failing after
// N bytes, for N over a range, each command and output format fails
// cleanly (exit 1) and leaves no output and no temporary file, or, with
// room for the whole output, succeeds with the outputs of a run without
// faults; the inputs are left byte for byte.
func TestWriteFaultsLeaveNothing(t *testing.T) {
	dir := t.TempDir()
	in := lostFixture(t, dir)
	p := func(name string) string { return filepath.Join(in, name) }
	before := tree(t, in)
	sizes := []int64{0, 1, 7, 100, 351, 352, 1000, 4096, 20000, 1 << 30}
	if testing.Short() {
		sizes = []int64{0, 100, 4096, 1 << 30}
	}
	for _, c := range []struct {
		name string
		args func(out string) []string
	}{
		{"label png npy csv", func(o string) []string {
			return []string{"label", p("a.png"), "-o", o + "/c.png", "--labels", o + "/l.npy", "--stats", o + "/s.csv"}
		}},
		{"label png16 json", func(o string) []string {
			return []string{"label", p("a.png"), "--labels", o + "/l.png", "--stats", o + "/s.json"}
		}},
		{"label several", func(o string) []string {
			return []string{"label", p("a.png"), p("b.png"), "-o", o, "--labels", ".npy"}
		}},
		{"volume nii.gz png csv", func(o string) []string {
			return []string{"volume", p("v.nii.gz"), "--binary", "-o", o + "/l.nii.gz", "--preview", o + "/p.png", "--stats", o + "/s.csv"}
		}},
		{"volume nii npy", func(o string) []string {
			return []string{"volume", p("v.nii.gz"), "-o", o + "/l.nii", "--labels", o + "/l.npy"}
		}},
		{"volume nrrd json", func(o string) []string {
			return []string{"volume", p("w.npy"), "-o", o + "/l.nrrd", "--stats", o + "/s.json"}
		}},
		{"volume out of core", func(o string) []string {
			return []string{"volume", p("v.nii.gz"), "--binary", "--max-memory", "20K", "-o", o + "/l.npy"}
		}},
		{"volume chunk", func(o string) []string {
			return []string{"volume", p("v.nii.gz"), "--binary", "--chunk", "1/2", "-o", o}
		}},
		{"merge", func(o string) []string { return []string{"merge", p("v.nii.gz"), p("chunks"), "-o", o + "/m.nii.gz"} }},
		{"graph txt npy", func(o string) []string {
			return []string{"graph", p("g.txt"), "--labels", o + "/l.txt", "--forest", o + "/f.npy", "--updates", p("u.txt"), "--answers", o + "/a.txt"}
		}},
		{"graph npy txt", func(o string) []string {
			return []string{"graph", p("g.egr"), "--labels", o + "/l.npy", "--forest", o + "/f.txt"}
		}},
		{"convert", func(o string) []string { return []string{"convert", p("g.txt"), o + "/g.egr"} }},
		{"gen image", func(o string) []string { return []string{"gen", "image", "--size", "40x30", "-o", o + "/i.png"} }},
		{"gen volume", func(o string) []string {
			return []string{"gen", "volume", "--size", "20,20,20", "--kind", "blobs", "-o", o + "/v.nii.gz"}
		}},
		{"gen graph", func(o string) []string {
			return []string{"gen", "graph", "random", "--vertices", "300", "-o", o + "/g.egr"}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ref := filepath.Join(dir, "ref-"+strings.ReplaceAll(c.name, " ", "-"))
			os.Mkdir(ref, 0o755)
			if r := runCLI(t, "", c.args(ref)...); r.code != 0 {
				t.Fatalf("without faults: %s", r.stderr)
			}
			want := tree(t, ref)
			failed := 0
			for _, n := range sizes {
				out := filepath.Join(dir, fmt.Sprintf("out-%d", n))
				os.RemoveAll(out)
				os.Mkdir(out, 0o755)
				restore := atomicfile.InjectWriteFault(n)
				r := runCLI(t, "", c.args(out)...)
				restore()
				switch {
				case r.code == 0:
					assertSameTree(t, out, want, fmt.Sprintf("fault after %d bytes, exit 0", n))
				case r.code == 1 && strings.Contains(r.stderr, atomicfile.ErrInjected.Error()):
					failed++
					if c.name == "label several" { // each input's outputs whole, or none
						for name := range tree(t, out) {
							stem := strings.SplitN(name, ".", 2)[0]
							if !bytes.Equal(tree(t, out)[stem+".png"], want[stem+".png"]) || !bytes.Equal(tree(t, out)[stem+".labels.npy"], want[stem+".labels.npy"]) {
								t.Errorf("fault after %d bytes: %s written without the other outputs of its input", n, name)
							}
						}
					} else {
						assertSameTree(t, out, nil, fmt.Sprintf("fault after %d bytes", n))
					}
				default:
					t.Fatalf("fault after %d bytes: exit %d: %s", n, r.code, r.stderr)
				}
				assertNoLeftovers(t, out)
			}
			if failed == 0 || failed == len(sizes) {
				t.Errorf("%d of %d fault sizes failed: the range misses the outputs' sizes", failed, len(sizes))
			}
			assertSameTree(t, in, before, "inputs")
		})
	}
}

// TestBatchWriteFaults: a batch whose writes fail records each input as
// failed and leaves no partial output, no temporary file and no claim; a
// rerun without faults writes what a clean run writes.
func TestBatchWriteFaults(t *testing.T) {
	dir := t.TempDir()
	batchInputs(t, dir, 2)
	in := filepath.Join(dir, "in")
	before := tree(t, in)
	ref := filepath.Join(dir, "ref")
	if r := runCLI(t, "", "batch", in, "-o", ref, "--stats", ".csv", "-q"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	out := filepath.Join(dir, "out")
	restore := atomicfile.InjectWriteFault(300)
	r := runCLI(t, "", "batch", in, "-o", out, "--stats", ".csv", "-q")
	restore()
	if r.code != 1 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want := tree(t, ref)
	for name, data := range tree(t, out) { // small outputs may fit: then whole
		if !bytes.Equal(data, want[name]) {
			t.Errorf("%s differs from a clean run's", name)
		}
	}
	assertNoLeftovers(t, out)
	if r := runCLI(t, "", "batch", in, "-o", out, "--stats", ".csv", "-q"); r.code != 0 {
		t.Fatalf("rerun: %s", r.stderr)
	}
	assertSameTree(t, out, want, "after the rerun")
	assertNoLeftovers(t, out)
	assertSameTree(t, in, before, "inputs")
}

// TestReadOnlyDestination: a destination that cannot be written fails
// cleanly and leaves the input as it was.
func TestReadOnlyDestination(t *testing.T) {
	dir := t.TempDir()
	in := lostFixture(t, dir)
	before := tree(t, in)
	dests := []string{"/proc"} // no file can be made there, whoever runs the test
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o555)
		dests = append(dests, ro)
	}
	for _, d := range dests {
		for _, args := range [][]string{
			{"label", filepath.Join(in, "a.png"), "-o", filepath.Join(d, "c.png")},
			{"volume", filepath.Join(in, "w.npy"), "-o", filepath.Join(d, "l.nii.gz")},
			{"graph", filepath.Join(in, "g.txt"), "--labels", filepath.Join(d, "l.txt")},
			{"convert", filepath.Join(in, "g.txt"), filepath.Join(d, "g.egr")},
			{"gen", "image", "-o", filepath.Join(d, "i.png")},
		} {
			t.Run(args[0]+" "+d, func(t *testing.T) {
				r := runCLI(t, "", args...)
				if r.code != 1 || !strings.Contains(r.stderr, d) {
					t.Fatalf("exit %d: %s", r.code, r.stderr)
				}
			})
		}
	}
	assertSameTree(t, in, before, "inputs")
}

// TestNoOutputSaysSo: a run without an output flag prints its summary and
// says that nothing was written, unless -q.
func TestNoOutputSaysSo(t *testing.T) {
	dir := t.TempDir()
	in := lostFixture(t, dir)
	for _, args := range [][]string{
		{"label", filepath.Join(in, "a.png")},
		{"volume", filepath.Join(in, "w.npy")},
		{"graph", filepath.Join(in, "g.txt")},
	} {
		t.Run(args[0], func(t *testing.T) {
			r := runCLI(t, "", args...)
			lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
			if r.code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[1], "cclabel: "+args[0]+": nothing was written (give ") {
				t.Errorf("exit %d, stderr %q", r.code, r.stderr)
			}
			if r := runCLI(t, "", append(args, "-q")...); r.code != 0 || r.stderr != "" {
				t.Errorf("-q: exit %d, stderr %q", r.code, r.stderr)
			}
			if r := runCLI(t, "", append(args, "--labels", filepath.Join(dir, args[0]+".npy"))...); r.code != 0 || strings.Contains(r.stderr, "nothing was written") {
				t.Errorf("with --labels: exit %d, stderr %q", r.code, r.stderr)
			}
		})
	}
}
