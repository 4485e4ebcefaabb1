package raster_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/job/raster"
)

// write4D writes a w x h x d NIfTI volume of frames frames of random
// multilabel values (0 and a few multiples of 1000, more classes in later
// frames) with a scaled, shifted geometry, and reads it back as "cclabel
// volume" does.
func write4D(t *testing.T, path string, w, h, d, frames int) *imagegraph.Volume {
	t.Helper()
	rng := rand.New(rand.NewPCG(25, uint64(frames)))
	values := make([][]uint32, frames)
	for f := range values {
		values[f] = make([]uint32, w*h*d)
		for i := range values[f] {
			values[f][i] = uint32(rng.IntN(3+f)) * 1000
		}
	}
	r, err := imagegraph.NewRaster(w, h, d, make([]uint16, w*h*d))
	if err != nil {
		t.Fatal(err)
	}
	spacing := [3]float64{0.5, 2, 3}
	affine := [3][4]float64{{0.5, 0, 0, -10}, {0, 2, 0, 20}, {0, 0, 3, 5}}
	ref := &imagegraph.Volume{Frames: []*imagegraph.Raster{r}, Slope: 1, Geometry: imagegraph.Geometry{Spacing: spacing, Affine: affine}, Format: "npy"}
	if err := formats.WriteVolumeLabels(path, ref, values, "uint16"); err != nil {
		t.Fatal(err)
	}
	vol, err := formats.ReadVolumeFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(vol.Frames) != frames || vol.Affine != affine {
		t.Fatalf("read back %d frames, affine %v", len(vol.Frames), vol.Affine)
	}
	return vol
}

// frameStatsOracle returns the statistics rows (csv or json) of every
// frame of vol labeled on its own, as a one-frame volume with the same
// geometry, on the serial backend.
func frameStatsOracle(t *testing.T, vol *imagegraph.Volume, s raster.Settings, conn int, format string) []string {
	t.Helper()
	serial, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendSerial})
	if err != nil {
		t.Fatal(err)
	}
	defer serial.Close()
	var out []string
	for _, f := range vol.Frames {
		one := *vol
		one.Frames = []*imagegraph.Raster{f}
		vl, err := raster.LabelVolume(serial, &one, s, conn)
		if err != nil {
			t.Fatal(err)
		}
		stats, err := imagegraph.Statistics(vl.Last, f)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := formats.WriteVolumeStats(&b, stats, format, vol.Affine); err != nil {
			t.Fatal(err)
		}
		out = append(out, b.String())
	}
	return out
}

// TestWriteVolumeEveryFrame labels a 4D NIfTI of 3 frames and checks its
// statistics against those of each frame labeled alone: the CSV holds
// every frame's rows, each led by its frame, the JSON every frame's
// objects with a frame field; the preview is frame 0's and says so.
func TestWriteVolumeEveryFrame(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in4d.nii.gz")
	vol := write4D(t, in, 7, 6, 5, 3)
	s := raster.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Multilabel}, DType: "auto"}
	vl, err := raster.LabelVolume(newLabeler(t), vol, s, 6)
	if err != nil {
		t.Fatal(err)
	}
	out := raster.VolumeOutputs{Input: in, Preview: filepath.Join(dir, "p.png"), Stats: filepath.Join(dir, "s.csv")}
	if err := raster.WriteVolume(out, vol, vl, raster.Settings{DType: "auto"}); err != nil {
		t.Fatal(err)
	}
	csv, err := os.ReadFile(out.Stats)
	if err != nil {
		t.Fatal(err)
	}
	alone := frameStatsOracle(t, vol, s, 6, "csv")
	header, _, _ := strings.Cut(alone[0], "\n")
	want := "frame," + header + "\n"
	rows := 0
	for f, text := range alone {
		_, body, _ := strings.Cut(text, "\n")
		lines := strings.SplitAfter(body, "\n")
		lines = lines[:len(lines)-1] // after the last "\n"
		if len(lines) != vl.PerFrame[f] || len(lines) == 0 {
			t.Fatalf("frame %d: %d rows alone, %d components in the 4D labeling", f, len(lines), vl.PerFrame[f])
		}
		for _, line := range lines {
			want += strconv.Itoa(f) + "," + line
		}
		rows += len(lines)
	}
	if string(csv) != want {
		t.Fatalf("4D stats:\n%s\nwant:\n%s", csv, want)
	}
	if rows != vl.Total {
		t.Fatalf("%d rows, %d components", rows, vl.Total)
	}

	// JSON: every frame's objects, in order, each with its frame.
	out.Stats = filepath.Join(dir, "s.json")
	if err := raster.WriteVolume(out, vol, vl, raster.Settings{DType: "auto"}); err != nil {
		t.Fatal(err)
	}
	var got, wantJSON []map[string]any
	text, _ := os.ReadFile(out.Stats)
	if err := json.Unmarshal(text, &got); err != nil {
		t.Fatal(err)
	}
	for f, text := range frameStatsOracle(t, vol, s, 6, "json") {
		var recs []map[string]any
		if err := json.Unmarshal([]byte(text), &recs); err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			r["frame"] = float64(f)
		}
		wantJSON = append(wantJSON, recs...)
	}
	if !reflect.DeepEqual(got, wantJSON) {
		t.Fatalf("4D JSON stats: %d objects, want %d", len(got), len(wantJSON))
	}

	// The preview shows frame 0 (the preview of frame 0 alone) and says
	// so in a text chunk; the note says so too.
	one := *vol
	one.Frames = vol.Frames[:1]
	vl0, err := raster.LabelVolume(newLabeler(t), &one, s, 6)
	if err != nil {
		t.Fatal(err)
	}
	out0 := raster.VolumeOutputs{Input: in, Preview: filepath.Join(dir, "p0.png")}
	if err := raster.WriteVolume(out0, &one, vl0, raster.Settings{DType: "auto"}); err != nil {
		t.Fatal(err)
	}
	p, p0 := decodePNG(t, out.Preview), decodePNG(t, out0.Preview)
	if !reflect.DeepEqual(p, p0) {
		t.Error("the preview is not frame 0's")
	}
	if txt, txt0 := pngText(t, out.Preview), pngText(t, out0.Preview); txt != "Description\x00frame 0 of 3" || txt0 != "" {
		t.Errorf("preview text %q (one frame: %q)", txt, txt0)
	}
	if note := raster.PreviewNote(out, 3); note != "preview "+out.Preview+" shows frame 0 of 3" {
		t.Errorf("note %q", note)
	}
	if note := raster.PreviewNote(out, 1) + raster.PreviewNote(raster.VolumeOutputs{}, 3); note != "" {
		t.Errorf("note of one frame, or of no preview: %q", note)
	}
}

// decodePNG returns a PNG's pixels as text.
func decodePNG(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(img)
}

// pngText returns the data of a PNG's tEXt chunk, "" when it has none.
func pngText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for b = b[8:]; len(b) >= 12; {
		n := int(binary.BigEndian.Uint32(b))
		if string(b[4:8]) == "tEXt" {
			return string(b[8 : 8+n])
		}
		b = b[12+n:]
	}
	return ""
}
