package raster

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/internal/testkit"
)

// inMemory labels a volume file whole, as cclabel volume does in memory,
// and writes the labels to out.
func inMemory(t *testing.T, input string, rawOpts *formats.RawOptions, out string, rule imagegraph.Rule, conn int) int {
	t.Helper()
	v, err := formats.ReadVolumeFile(input, rawOpts)
	if err != nil {
		t.Fatal(err)
	}
	rule.Slope, rule.Inter = v.Slope, v.Inter
	l, err := gridcc.Label(v.Frames[0], rule, gridcc.Options{Connectivity: conn, Threads: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := formats.WriteVolumeLabels(out, v, [][]uint32{l.Data}, "auto"); err != nil {
		t.Fatal(err)
	}
	return l.Count
}

// sameFiles fails unless two files hold the same bytes.
func sameFiles(t *testing.T, a, b, what string) {
	t.Helper()
	x, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(x, y) {
		t.Fatalf("%s: %s and %s differ (%d and %d bytes)", what, filepath.Base(a), filepath.Base(b), len(x), len(y))
	}
}

// writeInputs writes a random volume of values 0..3 (uint16 samples) as
// .npy, raw, .nii and .nii.gz and returns their paths and the raw options.
func writeInputs(t *testing.T, dir string, w, h, d int, p float64, seed uint64) ([]string, *formats.RawOptions) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	vals := make([]uint32, w*h*d)
	for i := range vals {
		if rng.Float64() < p {
			vals[i] = uint32(1 + rng.IntN(3))
		}
	}
	ref, err := imagegraph.NewRaster(w, h, d, make([]uint8, len(vals)))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, name := range []string{"in.npy", "in.nii", "in.nii.gz"} {
		path := filepath.Join(dir, name)
		if err := formats.WriteVolumeLabels(path, imagegraph.NewVolume(ref, "raw"), [][]uint32{vals}, "uint16"); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	var buf bytes.Buffer
	for _, v := range vals {
		binary.Write(&buf, binary.BigEndian, uint16(v))
	}
	path := filepath.Join(dir, "in.raw")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return append(paths, path), &formats.RawOptions{Shape: [3]int{w, h, d}, DType: "uint16", BigEndian: true}
}

// TestLabelMatchesInMemory: every input format, output format, rule,
// connectivity and slab thickness gives the in-memory labeling's file,
// byte for byte.
func TestLabelMatchesInMemory(t *testing.T) {
	dir := t.TempDir()
	w, h, d := 23, 17, 29
	inputs, rawOpts := writeInputs(t, dir, w, h, d, 0.35, 1)
	rules := []imagegraph.Rule{{Mode: imagegraph.Multilabel}, {Mode: imagegraph.Binary}, {Mode: imagegraph.Threshold, Threshold: 2}}
	thicknesses := []int{1, 2, 7, 29, 40}
	if testing.Short() {
		thicknesses = []int{1, 7}
	}
	type config struct {
		input, ext string
		rule       imagegraph.Rule
		conn       int
	}
	// Every rule and connectivity on one input and output; every input
	// and output on two of them.
	var configs []config
	for _, rule := range rules {
		for _, conn := range []int{6, 18, 26} {
			configs = append(configs, config{inputs[0], ".npy", rule, conn})
		}
	}
	for _, input := range inputs {
		for _, ext := range []string{".npy", ".nii.gz"} {
			configs = append(configs, config{input, ext, rules[0], 26}, config{input, ext, rules[1], 6})
		}
	}
	for ci, c := range configs {
		var ro *formats.RawOptions
		if strings.HasSuffix(c.input, ".raw") {
			ro = rawOpts
		}
		want := filepath.Join(dir, fmt.Sprintf("want%d%s", ci, c.ext))
		count := inMemory(t, c.input, ro, want, c.rule, c.conn)
		for _, thick := range thicknesses {
			got := filepath.Join(dir, "got"+c.ext)
			res, err := LabelOutOfCore(c.input, ro, got, OutOfCoreOptions{Rule: c.rule, Connectivity: c.conn, Threads: 1 + thick%2, DType: "auto", TempDir: dir, SlabPlanes: thick})
			if err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("%s -> %s %v c%d slabs of %d", filepath.Base(c.input), c.ext, c.rule, c.conn, thick)
			if res.Count != count || res.SlabPlanes != min(thick, d) {
				t.Fatalf("%s: %d components in slabs of %d, want %d", what, res.Count, res.SlabPlanes, count)
			}
			sameFiles(t, got, want, what)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "cclabel-*")); len(left) > 0 {
		t.Errorf("spill files left behind: %v", left)
	}
}

// TestLabelSharedVolumes labels the single-frame NIfTI and NRRD cases of
// the shared data out of core in slabs of 1 and 64 planes (slabs' own test
// takes 7) and checks the labels against expected.json.
func TestLabelSharedVolumes(t *testing.T) {
	if testing.Short() {
		t.Skip("the shared volumes take the full run (CI's -race -short run covers concurrency elsewhere)")
	}
	cases := testkit.Cases(t, func(c testkit.Case) bool {
		return strings.HasPrefix(c.File, "volumes/")
	})
	thicknesses := []int{1, 64}
	dir := t.TempDir()
	checked := 0
	for _, c := range cases {
		path := testkit.Path(c.File)
		s, ref, err := formats.OpenVolumeStream(path, nil)
		if err != nil { // a 4D volume, a TIFF stack
			t.Logf("%s: not streamed: %v", c.File, err)
			continue
		}
		s.Close()
		if ref.Frames[0].Depth == 1 {
			continue
		}
		rule, err := imagegraph.ParseRule(c.Mode)
		if err != nil {
			t.Fatal(err)
		}
		for _, thick := range thicknesses {
			out := filepath.Join(dir, "out.npy")
			res, err := LabelOutOfCore(path, nil, out, OutOfCoreOptions{Rule: rule, Connectivity: c.Connectivity, DType: "uint32", TempDir: dir, SlabPlanes: thick})
			if err != nil {
				t.Fatal(err)
			}
			labels := readLabels(t, out)
			if res.Count != c.Components || testkit.LabelsSHA256(labels) != c.SHA256 {
				t.Errorf("%s %s/%d, slabs of %d: %d components, want %d; hash match %v", c.File, c.Mode, c.Connectivity, thick,
					res.Count, c.Components, testkit.LabelsSHA256(labels) == c.SHA256)
			}
		}
		checked++
	}
	if checked < 10 {
		t.Errorf("only %d NIfTI and NRRD cases checked", checked)
	}
}

// readLabels reads a uint32 label .npy back in memory order.
func readLabels(t *testing.T, path string) []uint32 {
	t.Helper()
	v, err := formats.ReadVolumeFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Clone(v.Frames[0].Data.(imagegraph.Samples[uint32]))
}

func TestPlan(t *testing.T) {
	if n, err := Plan(1<<30, 512*512, 1); err != nil || n < 100 || n > 512*8 {
		t.Errorf("Plan(1 GiB, 512², uint8) = %d, %v", n, err)
	}
	if _, err := Plan(1<<20, 512*512, 1); err == nil {
		t.Error("Plan(1 MiB, 512²) fit a plane")
	}
}

// TestFitsInMemory: a volume fits when its samples (2 bytes a voxel here)
// and BytesPerVoxel a voxel fit, for every format read plane by plane; an
// input that cannot be opened so is read in memory.
func TestFitsInMemory(t *testing.T) {
	dir := t.TempDir()
	const w, h, d = 8, 6, 5
	paths, rawOpts := writeInputs(t, dir, w, h, d, 0.3, 7)
	need := int64(w*h*d) * (2 + BytesPerVoxel)
	for _, path := range paths {
		raw := rawOpts
		if !strings.HasSuffix(path, ".raw") {
			raw = nil
		}
		for _, c := range []struct {
			budget int64
			want   bool
		}{{need, true}, {need - 1, false}, {1 << 40, true}, {0, false}} {
			t.Run(fmt.Sprintf("%s_%d", filepath.Base(path), c.budget), func(t *testing.T) {
				if got := FitsInMemory(path, raw, c.budget); got != c.want {
					t.Errorf("FitsInMemory = %v, want %v", got, c.want)
				}
			})
		}
	}
	if !FitsInMemory(filepath.Join(dir, "missing.nii"), nil, 1) {
		t.Error("an input that cannot be opened did not fit")
	}
}

func TestLabelErrors(t *testing.T) {
	dir := t.TempDir()
	inputs, _ := writeInputs(t, dir, 5, 4, 3, 0.5, 2)
	binary := imagegraph.Rule{Mode: imagegraph.Binary}
	for _, c := range []struct {
		in, out string
		opts    OutOfCoreOptions
		want    string
	}{
		{inputs[0], filepath.Join(dir, "o.nrrd"), OutOfCoreOptions{Rule: binary, Connectivity: 26, SlabPlanes: 1, DType: "auto"}, ".nrrd"},
		{inputs[0], filepath.Join(dir, "o.npy"), OutOfCoreOptions{Rule: binary, Connectivity: 8, SlabPlanes: 1, DType: "auto"}, "connectivity"},
		{inputs[0], filepath.Join(dir, "o.npy"), OutOfCoreOptions{Rule: binary, Connectivity: 26, MaxMemory: 100, DType: "auto"}, "holds no slab"},
		{filepath.Join(dir, "none.npy"), filepath.Join(dir, "o.npy"), OutOfCoreOptions{Rule: binary, Connectivity: 26, SlabPlanes: 1}, "no such file"},
		{inputs[0], filepath.Join(dir, "o.npy"), OutOfCoreOptions{Rule: binary, Connectivity: 26, SlabPlanes: 1, DType: "uint8x"}, "label type"},
	} {
		if _, err := LabelOutOfCore(c.in, nil, c.out, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s -> %s: error %v, want one about %q", filepath.Base(c.in), filepath.Base(c.out), err, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "o.npy")); err == nil {
		t.Error("a failed run left o.npy behind")
	}
}

// TestLabelProgress: OutOfCoreOptions.Progress is told the planes done after each
// slab of the first pass, up to the depth, before the output is written;
// with a watched output its bytes are counted as it is written.
func TestLabelProgress(t *testing.T) {
	dir := t.TempDir()
	w, h, d := 23, 17, 29
	inputs, _ := writeInputs(t, dir, w, h, d, 0.35, 1)
	out := filepath.Join(dir, "progress.nii.gz")
	for _, c := range []struct {
		thick int
		want  []int
	}{
		{7, []int{7, 14, 21, 28, 29}},
		{29, []int{29}},
		{40, []int{29}},
	} {
		var got []int
		var written fileprogress.Meter
		stop := fileprogress.WatchFile(out, &written)
		_, err := LabelOutOfCore(inputs[0], nil, out, OutOfCoreOptions{Rule: imagegraph.Rule{Mode: imagegraph.Binary}, Connectivity: 26, DType: "uint16",
			TempDir: dir, SlabPlanes: c.thick, Progress: func(done, planes int) {
				if planes != d {
					t.Errorf("told %d planes, want %d", planes, d)
				}
				if _, _, unit := written.Progress(); unit != "" {
					t.Error("progress told after the writing began")
				}
				got = append(got, done)
			}})
		stop()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("slabs of %d: progress %v, want %v", c.thick, got, c.want)
		}
		const header = 352 // NIfTI-1, no extensions
		if done, total, unit := written.Progress(); done != total || total != header+2*int64(w*h*d) || unit != fileprogress.Bytes {
			t.Errorf("slabs of %d: writing counted %d of %d %s, want %d bytes", c.thick, done, total, unit, header+2*w*h*d)
		}
	}
}
