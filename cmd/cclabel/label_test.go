package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/internal/testkit"
	"github.com/cclabel/cclabel/job"
)

// readNPYLabels reads a .npy label array written by cclabel as uint32s.
func readNPYLabels(t *testing.T, path string) (descr string, labels []uint32) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	hlen := int(binary.LittleEndian.Uint16(raw[8:]))
	header := string(raw[10 : 10+hlen])
	descr = header[strings.Index(header, "'descr': '")+10:][:3]
	body := raw[10+hlen:]
	size := map[string]int{"<u2": 2, "<u4": 4, "<i4": 4}[descr]
	for i := 0; i+size <= len(body); i += size {
		if size == 2 {
			labels = append(labels, uint32(binary.LittleEndian.Uint16(body[i:])))
		} else {
			labels = append(labels, binary.LittleEndian.Uint32(body[i:]))
		}
	}
	return descr, labels
}

// modeFlags turns an expected.json mode into label flags.
func modeFlags(mode string) []string {
	parts := strings.Split(mode, ":")
	switch parts[0] {
	case "binary":
		return []string{"--binary"}
	case "threshold":
		f := []string{"--threshold", parts[1]}
		if len(parts) == 3 {
			f = append(f, "--invert")
		}
		return f
	}
	return nil
}

func TestLabelExpectedThroughCLI(t *testing.T) {
	cases := testkit.Cases(t, nil)
	dir := t.TempDir()
	n := 0
	for _, c := range cases {
		if !strings.HasPrefix(c.File, "images/") || c.Connectivity > 8 {
			continue
		}
		n++
		out := filepath.Join(dir, strconv.Itoa(n)+".npy")
		args := append([]string{"label", sharedData(t, c.File), "-c", strconv.Itoa(c.Connectivity),
			"--labels", out, "--json"}, modeFlags(c.Mode)...)
		r := runCLI(t, "", args...)
		if r.code != 0 {
			t.Fatalf("%s %s: exit %d: %s", c.File, c.Mode, r.code, r.stderr)
		}
		var s job.ImageSummary
		if err := json.Unmarshal([]byte(r.stdout), &s); err != nil || s.Components != c.Components {
			t.Fatalf("%s %s: summary %q (%v), want %d components", c.File, c.Mode, r.stdout, err, c.Components)
		}
		descr, labels := readNPYLabels(t, out)
		if want := map[bool]string{true: "<u2", false: "<u4"}[c.Components <= 65535]; descr != want {
			t.Errorf("%s: dtype %s, want %s", c.File, descr, want)
		}
		if got := testkit.LabelsSHA256(labels); got != c.SHA256 {
			t.Errorf("%s %s c%d: sha256 %s, want %s", c.File, c.Mode, c.Connectivity, got, c.SHA256)
		}
	}
	if n < 12 {
		t.Fatalf("%d image cases", n)
	}
}

// writeTestPNG writes a grey PNG.
func writeTestPNG(t *testing.T, path string, w, h int, at func(x, y int) uint8) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Pix[y*w+x] = at(x, y)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestLabelOutputs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.png")
	// Two squares of value 9 and one of value 200, on black.
	writeTestPNG(t, in, 20, 10, func(x, y int) uint8 {
		switch {
		case x < 4 && y < 4:
			return 9
		case x >= 10 && x < 13 && y >= 5:
			return 200
		case x >= 16 && y < 2:
			return 9
		}
		return 0
	})
	colour, labels16, stats := filepath.Join(dir, "c.png"), filepath.Join(dir, "l.png"), filepath.Join(dir, "s.csv")
	r := runCLI(t, "", "label", in, "-o", colour, "--labels", labels16, "--stats", stats)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	f, _ := os.Open(labels16)
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	g16, ok := img.(*image.Gray16)
	if !ok {
		t.Fatalf("label PNG is %T, want 16-bit grey", img)
	}
	if g16.Gray16At(0, 0).Y != 1 || g16.Gray16At(17, 1).Y != 2 || g16.Gray16At(11, 9).Y != 3 || g16.Gray16At(5, 5).Y != 0 {
		t.Fatal("16-bit label PNG holds wrong labels")
	}
	f, _ = os.Open(colour)
	cimg, err := png.Decode(f)
	f.Close()
	if err != nil || cimg.Bounds().Dx() != 20 {
		t.Fatalf("colour map: %v", err)
	}
	if r, g, b, _ := cimg.At(5, 5).RGBA(); r|g|b != 0 {
		t.Fatal("background is not black in the colour map")
	}
	if r, g, b, _ := cimg.At(0, 0).RGBA(); r|g|b == 0 {
		t.Fatal("a component is black in the colour map")
	}
	csv, _ := os.ReadFile(stats)
	want := "label,value,size,x0,y0,x1,y1,cx,cy\n1,9,16,0,0,3,3,1.500,1.500\n2,9,8,16,0,19,1,17.500,0.500\n3,200,15,10,5,12,9,11.000,7.000\n"
	if string(csv) != want {
		t.Fatalf("stats:\n%s\nwant:\n%s", csv, want)
	}
	// Filters: the largest component only; --min-size 10 keeps two.
	out := filepath.Join(dir, "f.npy")
	runCLI(t, "", "label", in, "--largest", "1", "--labels", out)
	if _, l := readNPYLabels(t, out); l[0] != 1 || l[17] != 0 || l[9*20+11] != 0 {
		t.Fatal("--largest 1 kept the wrong component")
	}
	runCLI(t, "", "label", in, "--min-size", "10", "--labels", out, "--binary", "-c", "4")
	if _, l := readNPYLabels(t, out); l[0] != 1 || l[17] != 0 || l[9*20+11] != 2 {
		t.Fatal("--min-size 10 kept the wrong components")
	}
	// Overlay and stdout.
	r = runCLI(t, "", "label", in, "--overlay", "-o", "-")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "\x89PNG") {
		t.Fatalf("overlay to stdout: exit %d %s", r.code, r.stderr)
	}
	assertNoTempFiles(t, dir)
}

func TestLabelBadInput(t *testing.T) {
	dir := t.TempDir()
	good := writeTestPNG(t, filepath.Join(dir, "good.png"), 8, 8, func(x, y int) uint8 { return uint8(x % 2) })
	// A checkerboard of 300x300 at 4-connectivity has 45000 components of
	// value 1 plus 45000 of value 2: too many for a 16-bit PNG.
	writeTestPNG(t, filepath.Join(dir, "many.png"), 300, 300, func(x, y int) uint8 { return uint8((x+y)%2 + 1) })
	files := map[string][]byte{
		"truncated.png": good[:len(good)/2],
		"corrupt.png":   append(append([]byte{}, good[:40]...), bytes.Repeat([]byte{0xAB}, 60)...),
		"truncated.jpg": {0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 'J', 'F', 'I', 'F'},
		"truncated.tif": {'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0},
		"unknown.xyz":   []byte("hello, I am not an image"),
		"empty.png":     nil,
		"zero.png":      zeroSizePNG(),
	}
	for name, data := range files {
		t.Run(name, func(t *testing.T) {
			in := filepath.Join(dir, name)
			os.WriteFile(in, data, 0o644)
			out := filepath.Join(dir, name+".out.png")
			assertCleanFailure(t, runCLI(t, "", "label", in, "-o", out), in)
			if _, err := os.Stat(out); err == nil {
				t.Fatal("output written for a bad input")
			}
		})
	}
	t.Run("missing output folder", func(t *testing.T) {
		out := filepath.Join(dir, "nope", "x.png")
		assertCleanFailure(t, runCLI(t, "", "label", filepath.Join(dir, "good.png"), "-o", out), out)
	})
	t.Run("too many labels for 16-bit PNG", func(t *testing.T) {
		out := filepath.Join(dir, "many.labels.png")
		r := runCLI(t, "", "label", filepath.Join(dir, "many.png"), "-c", "4", "--labels", out)
		assertCleanFailure(t, r, "many.png")
		if !strings.Contains(r.stderr, "65535") {
			t.Fatalf("error does not explain the limit: %s", r.stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatal("partial 16-bit PNG left behind")
		}
	})
	t.Run("several inputs, one bad", func(t *testing.T) {
		outDir := filepath.Join(dir, "out")
		os.Mkdir(outDir, 0o755)
		r := runCLI(t, "", "label", filepath.Join(dir, "good.png"), filepath.Join(dir, "truncated.png"), "-o", outDir, "--labels", ".npy")
		if r.code != 1 || !strings.Contains(r.stderr, "truncated.png") {
			t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
		}
		for _, f := range []string{"good.png", "good.labels.npy"} {
			if _, err := os.Stat(filepath.Join(outDir, f)); err != nil {
				t.Errorf("%s missing: the good input was not finished", f)
			}
		}
		if _, err := os.Stat(filepath.Join(outDir, "truncated.png")); err == nil {
			t.Error("output written for the bad input")
		}
	})
	assertNoTempFiles(t, dir)
}

// zeroSizePNG returns a PNG whose header claims a 0x0 image.
func zeroSizePNG() []byte {
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1)))
	b := buf.Bytes()
	// IHDR data starts at byte 16: width, height. Zero them (the CRC then
	// fails too, which is just as bad an input).
	copy(b[16:24], make([]byte, 8))
	return b
}

func TestLabelUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"label"},
		{"label", "x.png", "-c", "6"},
		{"label", "x.png", "--binary", "--threshold", "3"},
		{"label", "x.png", "--invert"},
		{"label", "x.png", "-o", "x.jpg"},
		{"label", "x.png", "--labels", "x.tif"},
		{"label", "x.png", "--stats", "x.txt"},
		{"label", "x.png", "--dtype", "float"},
		{"label", "x.png", "--largest", "-1"},
		{"label", "x.png", "--backend", "gpu2"},
		{"label", "a.png", "b.png", "--labels", ".npy"},
		{"gen", "image", "--size", "ten", "-o", "x.npy"},
		{"gen", "image", "--density", "2", "-o", "x.npy"},
		{"gen", "image", "-o", "x.bmp"},
	} {
		if r := runCLI(t, "", args...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, r.code, r.stderr)
		}
	}
}

func TestGenImage(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.npy"), filepath.Join(dir, "b.npy")
	for _, p := range []string{a, b} {
		if r := runCLI(t, "", "gen", "image", "--size", "300x200", "--density", "0.3", "--seed", "4", "-o", p); r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	ra, _ := os.ReadFile(a)
	rb, _ := os.ReadFile(b)
	if !bytes.Equal(ra, rb) {
		t.Fatal("same seed, different images")
	}
	ones := bytes.Count(ra[128:], []byte{1})
	if frac := float64(ones) / 60000; frac < 0.28 || frac > 0.32 {
		t.Fatalf("density %.3f, want about 0.3", frac)
	}
	blobs := filepath.Join(dir, "blobs.png")
	if r := runCLI(t, "", "gen", "image", "--kind", "blobs", "--size", "200x100", "--density", "0.4", "-o", blobs); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r := runCLI(t, "", "label", blobs, "--binary", "--json")
	var s job.ImageSummary
	json.Unmarshal([]byte(r.stdout), &s)
	if r.code != 0 || s.Components < 2 || s.Components > 200 || s.Width != 200 {
		t.Fatalf("blobs image: exit %d, %+v", r.code, s)
	}
}

func TestQuickStartSample(t *testing.T) {
	out := filepath.Join(t.TempDir(), "labels.png")
	r := runCLI(t, "", "label", filepath.Join("..", "..", "testdata", "sample.png"), "-o", out, "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var s job.ImageSummary
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil || s.Width != 256 || s.Height != 192 || s.Components < 1 {
		t.Fatalf("summary %q: %v", r.stdout, err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() != 256 || img.Bounds().Dy() != 192 {
		t.Fatalf("colour map: %v", err)
	}
	// Every component has a colour, background is black: count colours.
	colours := map[[3]uint32]bool{}
	for y := range 192 {
		for x := range 256 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r, g, b}] = true
		}
	}
	if len(colours) != s.Components+1 {
		t.Fatalf("%d colours for %d components plus background", len(colours), s.Components)
	}
}

// TestQuietSilencesSummaries checks that -q and --quiet silence the
// summary lines of label and volume.
func TestQuietSilencesSummaries(t *testing.T) {
	dir := t.TempDir()
	vol, img := filepath.Join(dir, "v.npy"), filepath.Join(dir, "i.npy")
	for _, args := range [][]string{
		{"gen", "volume", "--size", "60,50,40", "--seed", "3", "-o", vol},
		{"gen", "image", "--size", "300x200", "--seed", "3", "-o", img},
	} {
		if r := runCLI(t, "", args...); r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
	}
	for _, args := range [][]string{{"volume", vol, "-q"}, {"label", img, "--quiet"}} {
		if r := runCLI(t, "", args...); r.code != 0 || r.stderr != "" {
			t.Errorf("%v: exit %d, stderr %q; want 0 and nothing", args, r.code, r.stderr)
		}
	}
}
