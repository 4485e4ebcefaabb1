package raster_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/job/raster"
)

// measuredCase is one file whose tables are measured both ways.
type measuredCase struct {
	name      string
	image     bool // a 2D image (LabelImageMeasured) rather than a volume
	input     string
	intensity string
	stats     string // extension of the statistics file, "" for none
	contacts  string // extension of the contacts file, "" for none
	conn      int
	s         raster.Settings
}

// measuredCases writes the inputs of the cases into dir: 3D, 4D and 2D
// volumes and an image, in multilabel and threshold modes, with
// intensities of another file or of the input, orders, a background value
// and each table alone.
func measuredCases(t *testing.T, dir string) []measuredCase {
	t.Helper()
	rng := rand.New(rand.NewPCG(28, 1))
	write := func(name string, w, h, d int, sample func() float64, float bool) string {
		path := filepath.Join(dir, name)
		if float { // a float32 .npy file, which formats does not write
			header := fmt.Sprintf("{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d, %d), }", d, h, w)
			header += strings.Repeat(" ", 63-(10+len(header))%64) + "\n"
			b := append([]byte("\x93NUMPY\x01\x00"), byte(len(header)), byte(len(header)>>8))
			b = append(b, header...)
			for range w * h * d {
				b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(sample())))
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			return path
		}
		v := make([]uint8, w*h*d)
		for i := range v {
			v[i] = uint8(sample())
		}
		r, err := imagegraph.NewRaster(w, h, d, v)
		if err != nil {
			t.Fatal(err)
		}
		if err := formats.WriteRasterFile(path, r); err != nil {
			t.Fatal(err)
		}
		return path
	}
	labels := func() float64 { return float64(rng.IntN(4)) }
	gray := func() float64 { return float64(rng.IntN(200)) }
	noise := func() float64 { return rng.Float64() * 1000 }
	vol := write("v.npy", 23, 19, 17, labels, false)
	volI := write("vi.npy", 23, 19, 17, noise, true)
	flat := write("flat.npy", 31, 27, 1, labels, false)
	img := write("i.png", 41, 37, 1, labels, false)
	imgI := write("ii.png", 41, 37, 1, gray, false)
	four := filepath.Join(dir, "four.nii.gz")
	write4D(t, four, 9, 8, 7, 3)
	multi := imagegraph.Rule{Mode: imagegraph.Multilabel}
	all := raster.Measures{Intensity: true, Shape: true}
	return []measuredCase{
		{name: "volume", input: vol, intensity: volI, stats: ".csv", contacts: ".csv", conn: 26,
			s: raster.Settings{Rule: multi, Measures: all}},
		{name: "volume-by-size", input: vol, intensity: volI, stats: ".json", contacts: ".json", conn: 6,
			s: raster.Settings{Rule: multi, Measures: all, Order: raster.BySize}},
		{name: "background-by-size", input: vol, stats: ".csv", contacts: ".csv", conn: 18,
			s: raster.Settings{Rule: multi, Measures: raster.Measures{Shape: true}, Order: raster.BySize, Background: 2}},
		{name: "contacts-only", input: vol, contacts: ".csv", conn: 6, s: raster.Settings{Rule: multi, Order: raster.BySize}},
		{name: "stats-only", input: vol, stats: ".csv", conn: 26, s: raster.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Binary}}},
		{name: "4d-threshold", input: four, stats: ".csv", contacts: ".csv", conn: 6,
			s: raster.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Threshold, Threshold: 1000}, Measures: all, Order: raster.BySize}},
		{name: "2d-volume", input: flat, stats: ".csv", contacts: ".csv", conn: 26,
			s: raster.Settings{Rule: multi, Measures: raster.Measures{Shape: true}}},
		{name: "image", image: true, input: img, intensity: imgI, stats: ".csv", contacts: ".csv", conn: 4,
			s: raster.Settings{Rule: multi, Measures: all, Order: raster.BySize}},
		{name: "image-json", image: true, input: img, stats: ".json", conn: 8,
			s: raster.Settings{Rule: multi, Measures: raster.Measures{Shape: true}}},
	}
}

// writeMeasured writes the tables of c labeled by labeler l, measured as it
// is labeled, into files named after prefix, and returns their paths.
func writeMeasured(t *testing.T, l *cclabel.Labeler, c measuredCase, prefix string) []string {
	t.Helper()
	s := c.s
	s.DType, s.Threads = "auto", l.Threads()
	stats, contacts := "", ""
	if c.stats != "" {
		stats = prefix + ".stats" + c.stats
	}
	if c.contacts != "" {
		contacts = prefix + ".contacts" + c.contacts
	}
	if c.image {
		img, release, err := formats.MapImageFile(c.input, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		out := raster.ImageOutputs{Input: c.input, Stats: stats, Contacts: contacts, Intensity: c.intensity}
		m, err := raster.LabelImageMeasured(l, out, img, s, c.conn)
		if err != nil {
			t.Fatal(err)
		}
		if m.Labels.Data != nil || len(m.First) != m.Labels.Count {
			t.Fatalf("labels kept %v, %d first voxels for %d components", m.Labels.Data != nil, len(m.First), m.Labels.Count)
		}
		if err := raster.WriteImageMeasured(out, img, m, s, nil); err != nil {
			t.Fatal(err)
		}
	} else {
		vol, release, err := formats.MapVolumeFileStreaming(c.input, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		out := raster.VolumeOutputs{Input: c.input, Stats: stats, Contacts: contacts, Intensity: c.intensity}
		vl, err := raster.LabelVolumeMeasured(l, out, vol, s, c.conn)
		if err != nil {
			t.Fatal(err)
		}
		if len(vl.Measured) != len(vol.Frames) || vl.Frames[0] != nil {
			t.Fatalf("%d frames measured of %d, labels kept %v", len(vl.Measured), len(vol.Frames), vl.Frames[0] != nil)
		}
		if err := raster.WriteVolume(out, vol, vl, s); err != nil {
			t.Fatal(err)
		}
	}
	return []string{stats, contacts}
}

// writeFromLabels writes the tables of c as the label path does: labels
// first, measured when written.
func writeFromLabels(t *testing.T, l *cclabel.Labeler, c measuredCase, prefix string) []string {
	t.Helper()
	s := c.s
	s.DType, s.Threads = "auto", l.Threads()
	stats, contacts := "", ""
	if c.stats != "" {
		stats = prefix + ".stats" + c.stats
	}
	if c.contacts != "" {
		contacts = prefix + ".contacts" + c.contacts
	}
	if c.image {
		img, release, err := formats.MapImageFile(c.input, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		res, err := raster.LabelImage(l, img, s, c.conn)
		if err != nil {
			t.Fatal(err)
		}
		out := raster.ImageOutputs{Input: c.input, Stats: stats, Contacts: contacts, Intensity: c.intensity}
		if err := raster.WriteImage(out, img, res.Labels, s, nil); err != nil {
			t.Fatal(err)
		}
	} else {
		vol, release, err := formats.MapVolumeFileStreaming(c.input, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		vl, err := raster.LabelVolume(l, vol, s, c.conn)
		if err != nil {
			t.Fatal(err)
		}
		out := raster.VolumeOutputs{Input: c.input, Stats: stats, Contacts: contacts, Intensity: c.intensity}
		if err := raster.WriteVolume(out, vol, vl, s); err != nil {
			t.Fatal(err)
		}
	}
	return []string{stats, contacts}
}

// TestMeasuredTablesAreTheLabelPaths: the tables measured as a file is
// labeled (here by the CPU fallback of LabelRasterMeasured, which measures
// the labels it made) are those the label path writes, byte for byte, in
// every order, mode and shape.
func TestMeasuredTablesAreTheLabelPaths(t *testing.T) {
	dir := t.TempDir()
	l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, c := range measuredCases(t, dir) {
		t.Run(c.name, func(t *testing.T) {
			want := writeFromLabels(t, l, c, filepath.Join(dir, c.name+".want"))
			got := writeMeasured(t, l, c, filepath.Join(dir, c.name+".got"))
			compareFiles(t, want, got, false)
		})
	}
}

// TestMeasuredTablesOnGPU runs on a machine with a GPU: the tables the
// GPU measures without downloading the labels are the CPU label path's,
// byte for byte but for the intensity statistics, which the device sums
// in fixed point (within 1e-9 relative).
func TestMeasuredTablesOnGPU(t *testing.T) {
	if s := cclabel.Devices(); !s.Available {
		t.Skip("no GPU: " + s.Reason)
	}
	dir := t.TempDir()
	gpu, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendGPU})
	if err != nil {
		t.Fatal(err)
	}
	defer gpu.Close()
	cpu, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	defer cpu.Close()
	for _, c := range measuredCases(t, dir) {
		t.Run(c.name, func(t *testing.T) {
			want := writeFromLabels(t, cpu, c, filepath.Join(dir, c.name+".want"))
			got := writeMeasured(t, gpu, c, filepath.Join(dir, c.name+".got"))
			compareFiles(t, want, got, c.s.Measures.Intensity)
		})
	}
}

// number matches the numbers of a table file.
var number = regexp.MustCompile(`-?[0-9][0-9.]*(?:e[-+]?[0-9]+)?|NaN|[-+]Inf`)

// compareFiles fails unless the files want[i] and got[i] are equal, byte
// for byte, or with near when their numbers are within 1e-9 relative
// (and the text between them equal).
func compareFiles(t *testing.T, want, got []string, near bool) {
	t.Helper()
	for i := range want {
		if want[i] == "" {
			continue
		}
		a, err := os.ReadFile(want[i])
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(got[i])
		if err != nil {
			t.Fatal(err)
		}
		if len(a) == 0 {
			t.Fatalf("%s is empty", want[i])
		}
		if bytes.Equal(a, b) {
			continue
		}
		if !near {
			t.Fatalf("%s differs from %s:\n%.600s\n---\n%.600s", got[i], want[i], b, a)
		}
		if !nearText(string(a), string(b), 1e-9) {
			t.Fatalf("%s differs from %s beyond 1e-9:\n%.600s\n---\n%.600s", got[i], want[i], b, a)
		}
	}
}

// nearText reports whether a and b have the same text between their
// numbers and numbers within rel relative of each other.
func nearText(a, b string, rel float64) bool {
	na, nb := number.FindAllStringIndex(a, -1), number.FindAllStringIndex(b, -1)
	if len(na) != len(nb) || number.ReplaceAllString(a, "#") != number.ReplaceAllString(b, "#") {
		return false
	}
	for i := range na {
		x, errx := strconv.ParseFloat(a[na[i][0]:na[i][1]], 64)
		y, erry := strconv.ParseFloat(b[nb[i][0]:nb[i][1]], 64)
		if errx != nil || erry != nil {
			if a[na[i][0]:na[i][1]] != b[nb[i][0]:nb[i][1]] {
				return false
			}
			continue
		}
		if x != y && !(math.IsNaN(x) && math.IsNaN(y)) && math.Abs(x-y) > rel*max(math.Abs(x), math.Abs(y)) {
			return false
		}
	}
	return true
}
