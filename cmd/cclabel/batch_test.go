package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cclabel/cclabel/batch"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/job/raster"
)

// batchInputs writes a small mixed cohort under dir/in: random 20³ NIfTI
// volumes in two subfolders, a 3D .npy volume and two PNG images. It
// returns the input paths, sorted.
func batchInputs(t *testing.T, dir string, volumes int) []string {
	t.Helper()
	var paths []string
	gen := func(kind, rel string, args ...string) {
		path := filepath.Join(dir, "in", rel)
		os.MkdirAll(filepath.Dir(path), 0o755)
		r := runCLI(t, "", append(append([]string{"gen", kind}, args...), "-o", path)...)
		if r.code != 0 {
			t.Fatalf("gen %s: %s", rel, r.stderr)
		}
		paths = append(paths, path)
	}
	for i := range volumes {
		gen("volume", fmt.Sprintf("s%d/v%02d.nii.gz", i%2, i), "--size", "20,20,20", "--density", "0.3", "--seed", fmt.Sprint(i+1))
	}
	gen("volume", "s0/stack.npy", "--size", "16,12,8", "--density", "0.4", "--seed", "7")
	gen("image", "img/a.png", "--size", "40x30", "--density", "0.5", "--seed", "3")
	gen("image", "img/b.png", "--size", "33x21", "--density", "0.6", "--seed", "4")
	// Dated a minute back: file times come from a coarse clock, and an
	// output written in its input's tick would not count as newer.
	past := time.Now().Add(-time.Minute)
	for _, p := range paths {
		if err := os.Chtimes(p, past, past); err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(paths)
	return paths
}

// readSummary reads a batch summary file.
func readSummary(t *testing.T, path string) map[string]batch.Row {
	t.Helper()
	rows, err := batch.ReadSummaryFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]batch.Row{}
	for _, r := range rows {
		m[r.Input] = r
	}
	return m
}

// sameFile fails unless two files have the same bytes.
func sameFile(t *testing.T, got, want string) {
	t.Helper()
	a, err1 := os.ReadFile(got)
	b, err2 := os.ReadFile(want)
	if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
		t.Errorf("%s differs from %s (%v, %v)", got, want, err1, err2)
	}
}

func TestBatchMatchesSingleFileCommands(t *testing.T) {
	for _, extra := range [][]string{
		{"--min-size", "2"},
		{"--threshold", "1", "--order", "size", "--measure", "intensity,shape"},
		{"--background", "1", "--order", "size", "--measure", "shape"},
	} {
		t.Run(strings.Join(extra, " "), func(t *testing.T) { batchMatchesSingleFileCommands(t, extra) })
	}
}

// batchMatchesSingleFileCommands checks that a batch with the extra flags
// writes what "label" and "volume" write with them.
func batchMatchesSingleFileCommands(t *testing.T, extra []string) {
	flags := func(args ...string) []string { return append(args, extra...) }
	dir := t.TempDir()
	inputs := batchInputs(t, dir, 4)
	out, ref := filepath.Join(dir, "out"), filepath.Join(dir, "ref")
	os.Mkdir(ref, 0o755)
	summary := filepath.Join(dir, "summary.json")
	r := runCLI(t, "", flags("batch", filepath.Join(dir, "in"), "-o", out, "-c", "6",
		"--stats", ".csv", "--labels", ".npy", "--summary", summary, "--workers", "2")...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	rows := readSummary(t, summary)
	if len(rows) != len(inputs) {
		t.Fatalf("%d summary rows for %d inputs", len(rows), len(inputs))
	}
	for _, in := range inputs {
		rel, _ := filepath.Rel(filepath.Join(dir, "in"), in)
		stem := raster.Stem(rel)
		got := filepath.Join(out, filepath.Dir(rel), stem)
		want := filepath.Join(ref, strings.ReplaceAll(rel, "/", "_"))
		want = strings.TrimSuffix(want, filepath.Base(want)) + raster.Stem(filepath.Base(want))
		var single cliResult
		var main string
		if strings.HasSuffix(in, ".png") {
			main = ".png"
			single = runCLI(t, "", flags("label", in, "-c", "4", "-o", want+main,
				"--stats", want+".stats.csv", "--labels", want+".labels.npy", "--json")...)
			sameFile(t, got+".labels.npy", want+".labels.npy")
		} else {
			main = formats.FamilyExt(in)
			single = runCLI(t, "", flags("volume", in, "-c", "6", "-o", want+main,
				"--stats", want+".stats.csv", "--json")...)
		}
		if single.code != 0 {
			t.Fatalf("%s: %s", in, single.stderr)
		}
		sameFile(t, got+main, want+main)
		sameFile(t, got+".stats.csv", want+".stats.csv")
		row := rows[in]
		var s struct{ Components int64 }
		if err := jsonUnmarshal(single.stdout, &s); err != nil {
			t.Fatal(err)
		}
		if row.Status != batch.OK || row.Output != got+main || row.Components != s.Components || row.Voxels == 0 {
			t.Errorf("%s: row %+v, want ok, %s, %d components", in, row, got+main, s.Components)
		}
	}
	assertNoTempFilesTree(t, out)
}

func TestBatchFailureSkipAndOverwrite(t *testing.T) {
	dir := t.TempDir()
	inputs := batchInputs(t, dir, 3)
	bad := filepath.Join(dir, "in", "s1", "corrupt.nii.gz")
	data, _ := os.ReadFile(inputs[0])
	os.WriteFile(bad, data[:len(data)/2], 0o644) // a truncated gzip stream
	out, summary := filepath.Join(dir, "out"), filepath.Join(dir, "summary.csv")
	args := []string{"batch", filepath.Join(dir, "in"), "-o", out, "--summary", summary, "-q"}

	r := runCLI(t, "", args...)
	if r.code != 1 || !strings.Contains(r.stderr, "corrupt.nii.gz") || !strings.Contains(r.stderr, "1 of 7 inputs failed") {
		t.Fatalf("first run: exit %d, %q", r.code, r.stderr)
	}
	rows := readSummary(t, summary)
	if row := rows[bad]; row.Status != batch.Failed || !strings.Contains(row.Error, "corrupt.nii.gz") {
		t.Fatalf("corrupt input's row %+v", row)
	}
	if _, err := os.Stat(filepath.Join(out, "s1", "corrupt.nii.gz")); !os.IsNotExist(err) {
		t.Fatalf("an output for the corrupt input: %v", err)
	}
	for _, in := range inputs {
		if rows[in].Status != batch.OK {
			t.Fatalf("%s: %+v", in, rows[in])
		}
	}
	assertNoTempFilesTree(t, out)

	// A rerun skips every input whose outputs are newer, and fails again.
	r = runCLI(t, "", args...)
	rows = readSummary(t, summary)
	if r.code != 1 || rows[bad].Status != batch.Failed {
		t.Fatalf("second run: exit %d, %+v", r.code, rows[bad])
	}
	for _, in := range inputs {
		if rows[in].Status != batch.Skipped {
			t.Fatalf("second run: %s: %+v", in, rows[in])
		}
	}
	// A touched input is redone; --overwrite redoes them all.
	later := time.Now().Add(time.Hour)
	os.Chtimes(inputs[1], later, later)
	os.Remove(bad)
	r = runCLI(t, "", args...)
	rows = readSummary(t, summary)
	if r.code != 0 || rows[inputs[1]].Status != batch.OK || rows[inputs[0]].Status != batch.Skipped {
		t.Fatalf("after touching %s: exit %d, %+v", inputs[1], r.code, rows)
	}
	r = runCLI(t, "", append(args, "--overwrite")...)
	rows = readSummary(t, summary)
	for _, in := range inputs {
		if r.code != 0 || rows[in].Status != batch.OK {
			t.Fatalf("--overwrite: exit %d, %s: %+v", r.code, in, rows[in])
		}
	}
}

func TestBatchShardsCoverInputsOnce(t *testing.T) {
	dir := t.TempDir()
	inputs := batchInputs(t, dir, 5)
	out := filepath.Join(dir, "out")
	var parts []string
	seen := map[string]int{}
	run := func(summary string, args ...string) {
		t.Helper()
		r := runCLI(t, "", append([]string{"batch", filepath.Join(dir, "in"), "-o", out, "--summary", summary, "-q"}, args...)...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
		parts = append(parts, summary)
		for in := range readSummary(t, summary) {
			seen[in]++
		}
	}
	run(filepath.Join(dir, "s0.csv"), "--shard", "0/3")
	t.Setenv("SLURM_ARRAY_TASK_ID", "2") // --array=1-3: the second task
	t.Setenv("SLURM_ARRAY_TASK_MIN", "1")
	t.Setenv("SLURM_ARRAY_TASK_MAX", "3")
	run(filepath.Join(dir, "s1.json"))
	os.Unsetenv("SLURM_ARRAY_TASK_ID")
	t.Setenv("JOB_COMPLETION_INDEX", "2")
	run(filepath.Join(dir, "s2.csv"), "--shards", "3")
	for _, in := range inputs {
		if seen[in] != 1 {
			t.Errorf("%s processed by %d shards", in, seen[in])
		}
	}
	if len(seen) != len(inputs) {
		t.Errorf("shards saw %d inputs, want %d", len(seen), len(inputs))
	}
	merged := filepath.Join(dir, "all.csv")
	r := runCLI(t, "", append([]string{"batch", "--merge-summaries", merged}, parts...)...)
	if r.code != 0 {
		t.Fatalf("merge: %s", r.stderr)
	}
	rows, err := batch.ReadSummaryFile(merged)
	if err != nil || len(rows) != len(inputs) {
		t.Fatalf("merged %d rows (%v), want %d", len(rows), err, len(inputs))
	}
	for i, row := range rows {
		if row.Input != inputs[i] || row.Status != batch.OK {
			t.Fatalf("merged row %d: %+v, want %s ok", i, row, inputs[i])
		}
	}
	os.WriteFile(filepath.Join(dir, "bad.csv"), []byte("input,output\n"), 0o644)
	r = runCLI(t, "", "batch", "--merge-summaries", merged, parts[0], filepath.Join(dir, "bad.csv"))
	if r.code != 1 || !strings.Contains(r.stderr, "header") {
		t.Fatalf("mismatched header: exit %d, %q", r.code, r.stderr)
	}
}

func TestBatchUsageErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "a.png")
	writeTestPNG(t, in, 4, 4, func(x, y int) uint8 { return uint8(x & 1) })
	os.WriteFile(filepath.Join(dir, "a.jpg"), nil, 0o644)
	out := filepath.Join(dir, "out")
	for _, args := range [][]string{
		{"batch", in},
		{"batch", "-o", out},
		{"batch", in, "-o", out, "-c", "5"},
		{"batch", in, "-o", out, "--stats", "s.csv"},
		{"batch", in, "-o", out, "--shard", "3/3"},
		{"batch", in, "-o", out, "--shards", "3"},
		{"batch", in, "-o", out, "--summary", "s.txt"},
		{"batch", in, "-o", out, "--max-memory", "lots"},
		{"batch", in, filepath.Join(dir, "a.jpg"), "-o", out}, // both write a.png
		{"batch", "--merge-summaries", "all.csv"},
	} {
		if r := runCLI(t, "", args...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2 (%q)", args, r.code, r.stderr)
		}
	}
	if r := runCLI(t, "", "batch", filepath.Join(dir, "none*.png"), "-o", out); r.code != 1 {
		t.Errorf("no match: exit %d", r.code)
	}
}

// assertNoTempFilesTree fails when a temporary output file is left under
// root.
func assertNoTempFilesTree(t *testing.T, root string) {
	t.Helper()
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", path)
		}
		return nil
	})
}

// jsonUnmarshal decodes a JSON summary printed on stdout.
func jsonUnmarshal(text string, v any) error { return json.Unmarshal([]byte(text), v) }

func TestBatchRefusesOutputsOverInputs(t *testing.T) {
	dir := t.TempDir()
	inputs := batchInputs(t, dir, 2)
	in := filepath.Join(dir, "in")
	before, _ := os.ReadFile(inputs[0])
	for _, args := range [][]string{
		{in, "-o", in}, // the input folder itself
		{in + "/", "-o", filepath.Join(in, "s0", "..")},                        // the same, spelled otherwise
		{filepath.Join(in, "*", "*.nii.gz"), "-o", in},                         // a glob: v00.nii.gz would replace itself
		{filepath.Join(in, "s0", "v00.nii.gz"), "-o", filepath.Join(in, "s0")}, // a file named directly
	} {
		r := runCLI(t, "", append([]string{"batch", "-q"}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "-o") {
			t.Errorf("%v: exit %d, %q; want a usage error", args, r.code, r.stderr)
		}
	}
	if after, _ := os.ReadFile(inputs[0]); !bytes.Equal(before, after) {
		t.Fatal("an input was overwritten")
	}
	// A glob over a folder that holds the output folder passes over it.
	out := filepath.Join(in, "labels")
	for range 2 {
		if r := runCLI(t, "", "batch", "-q", filepath.Join(in, "*"), "-o", out); r.code != 0 {
			t.Fatalf("glob with -o inside: exit %d: %s", r.code, r.stderr)
		}
	}
}

func TestBatchListMissingEntryIsAFailedRow(t *testing.T) {
	dir := t.TempDir()
	inputs := batchInputs(t, dir, 2)
	list := filepath.Join(dir, "list.txt")
	missing := filepath.Join(dir, "in", "gone.nii.gz")
	text := "# cohort\n\n  " + inputs[0] + "  \r\n" + missing + "\n" + inputs[1] + "\n"
	os.WriteFile(list, []byte(text), 0o644)
	summary := filepath.Join(dir, "new", "summary.json") // its folder is made before the work
	r := runCLI(t, "", "batch", "@"+list, "-o", filepath.Join(dir, "out"), "--summary", summary, "-q")
	if r.code != 1 || !strings.Contains(r.stderr, "gone.nii.gz") {
		t.Fatalf("exit %d, %q", r.code, r.stderr)
	}
	rows := readSummary(t, summary)
	if len(rows) != 3 || rows[missing].Status != batch.Failed || !strings.Contains(rows[missing].Error, "no such file") {
		t.Fatalf("rows %+v", rows)
	}
	for _, in := range inputs[:2] {
		if rows[in].Status != batch.OK {
			t.Errorf("%s: %+v", in, rows[in])
		}
	}
}

func TestBatchSkipNeedsEveryOutputNewer(t *testing.T) {
	dir := t.TempDir()
	batchInputs(t, dir, 1)
	out, summary := filepath.Join(dir, "out"), filepath.Join(dir, "s.csv")
	args := []string{"batch", filepath.Join(dir, "in"), "-o", out, "--stats", ".csv", "--preview", ".png", "--labels", ".npy", "--summary", summary, "-q"}
	if r := runCLI(t, "", args...); r.code != 0 {
		t.Fatal(r.stderr)
	}
	vol, img := filepath.Join(dir, "in", "s0", "v00.nii.gz"), filepath.Join(dir, "in", "img", "a.png")
	os.Remove(filepath.Join(out, "s0", "v00.preview.png")) // one output missing
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(out, "img", "a.labels.npy"), old, old) // one output older than its input
	if r := runCLI(t, "", args...); r.code != 0 {
		t.Fatal(r.stderr)
	}
	rows := readSummary(t, summary)
	for in, want := range map[string]batch.Status{vol: batch.OK, img: batch.OK,
		filepath.Join(dir, "in", "img", "b.png"): batch.Skipped, filepath.Join(dir, "in", "s0", "stack.npy"): batch.Skipped} {
		if rows[in].Status != want {
			t.Errorf("%s: %s, want %s", in, rows[in].Status, want)
		}
	}
}
