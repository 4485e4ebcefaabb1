package cclabel_test

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/measure"
	"github.com/cclabel/cclabel/internal/testkit"
)

// The tests of this file write what bench/measure_oracle.py and
// bench/measure_vs_peers.py check against scipy, NumPy and scikit-image;
// they run only when asked by their environment variables.

// dumpCase is one labeling that TestMeasureDump measures.
type dumpCase struct {
	file, intensity string // intensity "" for the file itself
	mode            string
	conn            int
}

// TestMeasureDump writes, for every image and volume of the shared data
// (each case of expected.json, each label map with its intensity image, and
// every other file, labeled as binary), into $CCLABEL_MEASURE_DUMP: the
// labels (NNN.labels.npy, uint32), the intensity (NNN.intensity.npy,
// float32 as stored or float64 scaled values; none for colour images) and the measurements
// (NNN.json).
func TestMeasureDump(t *testing.T) {
	out := os.Getenv("CCLABEL_MEASURE_DUMP")
	if out == "" {
		t.Skip("CCLABEL_MEASURE_DUMP not set")
	}
	dir := testkit.Dir(t)
	var cases []dumpCase
	seen := map[string]bool{}
	for _, c := range testkit.Cases(t, nil) {
		cases = append(cases, dumpCase{file: c.File, mode: c.Mode, conn: c.Connectivity})
		seen[c.File] = true
	}
	for _, pair := range [][2]string{
		{"images/stardist_mask2d.tif", "images/stardist_img2d.tif"},
		{"volumes/pyradiomics_breast1_label.nrrd", "volumes/pyradiomics_breast1_image.nrrd"},
		{"volumes/pyradiomics_prostate_phantom_subvolume-label.nrrd", "volumes/pyradiomics_prostate_phantom_subvolume.nrrd"},
	} {
		cases = append(cases, dumpCase{file: pair[0], intensity: pair[1], mode: "multilabel", conn: 0})
		seen[pair[1]] = true
	}
	for _, sub := range []string{"images", "volumes", "volumes/pynrrd_format_cases"} {
		entries, _ := os.ReadDir(filepath.Join(dir, sub))
		for _, e := range entries {
			name := sub + "/" + e.Name()
			if e.IsDir() || seen[name] || strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".raw") {
				continue
			}
			cases = append(cases, dumpCase{file: name, mode: "binary", conn: 0})
		}
	}
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		vol, err := readAny(filepath.Join(dir, c.file), c.conn)
		if err != nil {
			t.Logf("%s: skipped: %v", c.file, err)
			continue
		}
		ivol := vol
		if c.intensity != "" {
			if ivol, err = readAny(filepath.Join(dir, c.intensity), c.conn); err != nil {
				t.Fatalf("%s: %v", c.intensity, err)
			}
		}
		rule, err := imagegraph.ParseRule(c.mode)
		if err != nil {
			t.Fatal(err)
		}
		rule.Slope, rule.Inter = vol.Slope, vol.Inter
		for f, r := range vol.Frames {
			res, err := lab.LabelRaster(r, rule, c.conn, nil)
			if err != nil {
				t.Fatalf("%s: %v", c.file, err)
			}
			opt := measure.Options{Spacing: vol.Spacing, Surface: true, Contacts: true}
			ir := ivol.Frames[min(f, len(ivol.Frames)-1)]
			if ir.Kind != imagegraph.RGB {
				opt.Intensity, opt.Slope, opt.Inter = ir, ivol.Slope, ivol.Inter
			}
			table, err := lab.Measure(res, opt)
			if err != nil {
				t.Fatalf("%s: %v", c.file, err)
			}
			base := filepath.Join(out, fmt.Sprintf("%03d", n))
			n++
			if err := dumpCaseFiles(base, c, f, vol, res.Labels, opt, table); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d labelings measured into %s", n, out)
}

// readAny reads an image (conn 4 or 8) or else a volume.
func readAny(path string, conn int) (*imagegraph.Volume, error) {
	if conn == 4 || conn == 8 {
		img, err := formats.ReadImageFile(path, nil)
		if err != nil {
			return nil, err
		}
		return imagegraph.NewVolume(img.Raster, "image"), nil
	}
	return formats.ReadVolumeFile(path, nil)
}

// dumpCaseFiles writes the labels, the intensity and the table of one
// labeling beside base, with the numbering by size (size_order).
func dumpCaseFiles(base string, c dumpCase, frame int, vol *imagegraph.Volume, l *imagegraph.Labels, opt measure.Options, table *measure.Table) error {
	shape := []int{l.Depth, l.Height, l.Width}
	if l.Depth == 1 {
		shape = shape[1:]
	}
	if err := writeFile(base+".labels.npy", func(w *bufio.Writer) error { return npy.WriteLabels(w, l.Data, shape, "uint32") }); err != nil {
		return err
	}
	if r := opt.Intensity; r != nil {
		slope := opt.Slope
		if slope == 0 {
			slope = 1
		}
		var err error
		if f32, ok := r.Data.(imagegraph.Samples[float32]); ok && slope == 1 && opt.Inter == 0 {
			err = writeFloatNPY(base+".intensity.npy", []float32(f32), "<f4", shape)
		} else {
			vals := make([]float64, r.Len())
			for i := range vals {
				vals[i] = float64(r.Value(i)*slope) + opt.Inter
			}
			err = writeFloatNPY(base+".intensity.npy", vals, "<f8", shape)
		}
		if err != nil {
			return err
		}
	}
	sizes := make([]int64, len(table.Components))
	for k, c := range table.Components {
		sizes[k] = c.Size
	}
	doc := map[string]any{
		"size_order": measure.SizeOrder(sizes),
		"file":       c.file, "intensity_file": c.intensity, "mode": c.mode, "connectivity": c.conn, "frame": frame,
		"shape_xyz": []int{l.Width, l.Height, l.Depth}, "spacing": vol.Spacing, "count": l.Count,
		"has_intensity": opt.Intensity != nil,
	}
	doc["components"], doc["contacts"] = tableJSON(table)
	raw, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	return os.WriteFile(base+".json", raw, 0o644)
}

// tableJSON returns the components and contacts of t as JSON values, with
// floats exact (NaN as null).
func tableJSON(t *measure.Table) (comps, contacts []any) {
	f := func(v float64) any {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return v
	}
	for _, c := range t.Components {
		comps = append(comps, map[string]any{
			"size": c.Size, "min": c.Min, "max": c.Max, "centroid": c.Centroid,
			"eq_diameter": c.EqDiameter, "surface": c.Surface,
			"sum": f(c.Sum), "mean": f(c.Mean), "imin": f(c.IMin), "imax": f(c.IMax), "std": f(c.Std),
			"wcentroid": []any{f(c.WCentroid[0]), f(c.WCentroid[1]), f(c.WCentroid[2])},
		})
	}
	for _, c := range t.Contacts {
		contacts = append(contacts, []any{c.A, c.B, c.Faces, c.Area})
	}
	return comps, contacts
}

// writeFile writes path through a buffer.
func writeFile(path string, write func(w *bufio.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := write(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeFloatNPY writes vals as a little-endian .npy array of dtype descr
// and shape, in C order.
func writeFloatNPY[F float32 | float64](path string, vals []F, descr string, shape []int) error {
	return writeFile(path, func(w *bufio.Writer) error {
		dims := make([]string, len(shape))
		for i, s := range shape {
			dims[i] = strconv.Itoa(s)
		}
		dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s,), }", descr, strings.Join(dims, ", "))
		pad := 64 - (10+len(dict)+1)%64
		header := dict + strings.Repeat(" ", pad) + "\n"
		w.WriteString("\x93NUMPY\x01\x00")
		binary.Write(w, binary.LittleEndian, uint16(len(header)))
		w.WriteString(header)
		return binary.Write(w, binary.LittleEndian, vals)
	})
}

// TestMeasureFile measures a label map for bench/measure_vs_peers.py: it
// labels $CCLABEL_MEASURE_FILE (a .npy, multilabel, 26- or
// 8-connectivity) on $CCLABEL_MEASURE_THREADS threads (default all) and
// measures the labels with a random float32 intensity (seed 1) or
// $CCLABEL_MEASURE_INTENSITY, spacing 1, surface and contacts, timing both
// over $CCLABEL_MEASURE_REPEATS runs (default 5). It writes the labels,
// the intensity and the table with the median times to
// $CCLABEL_MEASURE_OUT (a path prefix).
func TestMeasureFile(t *testing.T) {
	in := os.Getenv("CCLABEL_MEASURE_FILE")
	if in == "" {
		t.Skip("CCLABEL_MEASURE_FILE not set")
	}
	outBase := os.Getenv("CCLABEL_MEASURE_OUT")
	threads, _ := strconv.Atoi(os.Getenv("CCLABEL_MEASURE_THREADS"))
	repeats, _ := strconv.Atoi(os.Getenv("CCLABEL_MEASURE_REPEATS"))
	repeats = max(repeats, 1)
	r, err := npy.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	var intensity *imagegraph.Raster
	if p := os.Getenv("CCLABEL_MEASURE_INTENSITY"); p != "" {
		if intensity, err = npy.ReadFile(p); err != nil {
			t.Fatal(err)
		}
	} else {
		rng := rand.New(rand.NewPCG(1, 0))
		vals := make([]float32, r.Len())
		for i := range vals {
			vals[i] = rng.Float32()
		}
		intensity = mustRasterOf(t, r.Width, r.Height, r.Depth, vals)
	}
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU, Threads: threads})
	if err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	rule := imagegraph.Rule{Mode: imagegraph.Multilabel}
	dst := make([]uint32, r.Len())
	var res *cclabel.RasterResult
	var table *measure.Table
	var labelTimes, measureTimes, labelCPU, measureCPU []float64
	opt := measure.Options{Intensity: intensity, Surface: true, Contacts: true}
	for range repeats {
		start, cpu := time.Now(), cpuTime()
		if res, err = lab.LabelRaster(r, rule, 0, dst); err != nil {
			t.Fatal(err)
		}
		labelTimes = append(labelTimes, time.Since(start).Seconds())
		labelCPU = append(labelCPU, (cpuTime() - cpu).Seconds())
		start, cpu = time.Now(), cpuTime()
		if table, err = lab.Measure(res, opt); err != nil {
			t.Fatal(err)
		}
		measureTimes = append(measureTimes, time.Since(start).Seconds())
		measureCPU = append(measureCPU, (cpuTime() - cpu).Seconds())
	}
	for _, s := range [][]float64{labelTimes, measureTimes, labelCPU, measureCPU} {
		slices.Sort(s)
	}
	m := repeats / 2
	t.Logf("threads %d: label median %.3f s (cpu %.3f s), measure median %.3f s (cpu %.3f s): %.2fx (cpu %.2fx)", lab.Threads(),
		labelTimes[m], labelCPU[m], measureTimes[m], measureCPU[m], measureTimes[m]/labelTimes[m], measureCPU[m]/labelCPU[m])
	if outBase == "" {
		return
	}
	c := dumpCase{file: in, mode: "multilabel"}
	if err := dumpCaseFiles(outBase, c, 0, imagegraph.NewVolume(r, "npy"), res.Labels, opt, table); err != nil {
		t.Fatal(err)
	}
	timing, _ := json.Marshal(map[string]any{"threads": lab.Threads(), "label_s": labelTimes, "measure_s": measureTimes,
		"label_cpu_s": labelCPU, "measure_cpu_s": measureCPU})
	if err := os.WriteFile(outBase+".timing.json", timing, 0o644); err != nil {
		t.Fatal(err)
	}
}
