package imageio

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"github.com/cclabel/cclabel/internal/testkit"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSharedImages decodes the real 2D images, checks their sizes against
// expected.json and, through a plain breadth-first labeling of the decoded
// values, the component counts and label hashes, which depend on every
// pixel value. The 2-page TIFF must be rejected as a volume.
func TestSharedImages(t *testing.T) {
	cases := testkit.Cases(t, nil)
	sharedData := testkit.Dir(t)
	seen, checked := 0, 0
	for _, c := range cases {
		if !strings.HasPrefix(c.File, "images/") {
			continue
		}
		path := filepath.Join(sharedData, c.File)
		if _, err := os.Stat(path); err != nil {
			t.Logf("%s absent", c.File)
			continue
		}
		seen++
		img, err := DecodeFile(path)
		if len(c.Shape) == 3 {
			testkit.WantError(t, err, path, "multi-page TIFF ("+strconv.Itoa(c.Shape[2])+" pages)", "cclabel volume")
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.File, err)
			continue
		}
		if b := img.Bounds(); b != image.Rect(0, 0, c.Shape[0], c.Shape[1]) {
			t.Errorf("%s: bounds %v, want %dx%d", c.File, b, c.Shape[0], c.Shape[1])
			continue
		}
		labels, n := labelForTest(t, imageValues(img), c.Shape[0], c.Shape[1], c.Mode, c.Connectivity)
		sum := sha256.New()
		for _, l := range labels {
			sum.Write(binary.LittleEndian.AppendUint32(nil, l))
		}
		if got := hex.EncodeToString(sum.Sum(nil)); n != c.Components || got != c.SHA256 {
			t.Errorf("%s %s %d-connected: %d components (sha256 %s), want %d (%s)",
				c.File, c.Mode, c.Connectivity, n, got[:12], c.Components, c.SHA256[:12])
		}
		checked++
	}
	if seen == 0 {
		t.Skip("no shared images present")
	}
	t.Logf("%d image cases checked against expected.json", checked)
}

// imageValues returns the values the data's conventions label: grey
// samples as stored, palette indices, colour with R=G=B as grey and other
// colour as 0xRRGGBB (alpha ignored).
func imageValues(img image.Image) []uint32 {
	b := img.Bounds()
	vals := make([]uint32, 0, b.Dx()*b.Dy())
	grey := true
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			switch m := img.(type) {
			case *image.Gray:
				vals = append(vals, uint32(m.GrayAt(x, y).Y))
			case *image.Gray16:
				vals = append(vals, uint32(m.Gray16At(x, y).Y))
			case *image.Paletted:
				vals = append(vals, uint32(m.ColorIndexAt(x, y)))
			default:
				var r, g, bl uint8
				switch m := img.(type) {
				case *image.NRGBA:
					c := m.NRGBAAt(x, y)
					r, g, bl = c.R, c.G, c.B
				case *image.RGBA:
					c := m.RGBAAt(x, y)
					r, g, bl = c.R, c.G, c.B
				default:
					c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
					r, g, bl = c.R, c.G, c.B
				}
				grey = grey && r == g && g == bl
				vals = append(vals, uint32(r)<<16|uint32(g)<<8|uint32(bl))
			}
		}
	}
	switch img.(type) {
	case *image.Gray, *image.Gray16, *image.Paletted:
	default:
		if grey {
			for i := range vals {
				vals[i] &= 0xff
			}
		}
	}
	return vals
}

// labelForTest labels vals (w x h, x fastest) by breadth-first search in
// scan order, which numbers components by first occurrence. Modes are as
// in expected.json: "multilabel", "binary", "threshold:T" and
// "threshold:T:invert".
func labelForTest(t *testing.T, vals []uint32, w, h int, mode string, conn int) ([]uint32, int) {
	t.Helper()
	fg := func(i int) bool { return vals[i] != 0 }
	same := func(i, j int) bool { return vals[i] == vals[j] }
	switch {
	case mode == "multilabel":
	case mode == "binary":
		same = func(int, int) bool { return true }
	case strings.HasPrefix(mode, "threshold:"):
		parts := strings.Split(mode, ":")
		thr, err := strconv.ParseFloat(parts[1], 64)
		if err != nil {
			t.Fatalf("mode %q: %v", mode, err)
		}
		invert := parts[len(parts)-1] == "invert"
		fg = func(i int) bool { return (float64(vals[i]) >= thr) != invert }
		same = func(int, int) bool { return true }
	default:
		t.Fatalf("unknown mode %q", mode)
	}
	labels := make([]uint32, len(vals))
	n := uint32(0)
	var queue []int
	for start := range vals {
		if labels[start] != 0 || !fg(start) {
			continue
		}
		n++
		labels[start] = n
		queue = append(queue[:0], start)
		for len(queue) > 0 {
			i := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			x, y := i%w, i/w
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if (dx == 0 && dy == 0) || (conn == 4 && dx != 0 && dy != 0) {
						continue
					}
					nx, ny := x+dx, y+dy
					if nx < 0 || ny < 0 || nx >= w || ny >= h {
						continue
					}
					j := ny*w + nx
					if labels[j] == 0 && fg(j) && same(i, j) {
						labels[j] = n
						queue = append(queue, j)
					}
				}
			}
		}
	}
	return labels, int(n)
}
