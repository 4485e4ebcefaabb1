package imagegraph_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
)

// expectedCase is one entry of ../shared/data/expected.json.
type expectedCase struct {
	File         string `json:"file"`
	Mode         string `json:"mode"`
	Connectivity int    `json:"connectivity"`
	Components   int    `json:"components"`
	SHA256       string `json:"sha256"`
	Shape        []int  `json:"shape"`
}

// sharedDataDir is where the shared test data lives, relative to this
// package.
const sharedDataDir = "../../shared/data"

// loadExpected returns the cases of expected.json whose file starts with
// prefix, skipping the test when the shared data is absent.
func loadExpected(t *testing.T, prefix string) []expectedCase {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(sharedDataDir, "expected.json"))
	if err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	var all, out []expectedCase
	if err := json.Unmarshal(raw, &all); err != nil {
		t.Fatal(err)
	}
	for _, c := range all {
		if strings.HasPrefix(c.File, prefix) {
			out = append(out, c)
		}
	}
	return out
}

// labelsSHA256 hashes labels in canonical form: uint32 little-endian.
func labelsSHA256(labels []uint32) string {
	h := sha256.New()
	buf := make([]byte, 0, 4096)
	for i, l := range labels {
		buf = binary.LittleEndian.AppendUint32(buf, l)
		if len(buf) == cap(buf) || i == len(labels)-1 {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestExpectedImages(t *testing.T) {
	cases := loadExpected(t, "images/")
	if len(cases) == 0 {
		t.Fatal("no image cases in expected.json")
	}
	tested := 0
	for _, c := range cases {
		if c.Connectivity != 4 && c.Connectivity != 8 {
			continue // the multi-page TIFF is a volume case
		}
		tested++
		t.Run(filepath.Base(c.File)+"/"+c.Mode+"/"+string(rune('0'+c.Connectivity)), func(t *testing.T) {
			img, err := formats.DecodeImageFile(filepath.Join(sharedDataDir, c.File))
			if err != nil {
				t.Fatal(err)
			}
			r, err := imagegraph.FromImage(img)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Shape) != 2 || r.Width != c.Shape[0] || r.Height != c.Shape[1] {
				t.Fatalf("size %dx%d, want %v", r.Width, r.Height, c.Shape)
			}
			rule, err := imagegraph.ParseRule(c.Mode)
			if err != nil {
				t.Fatal(err)
			}
			for _, threads := range []int{1, 2, 5} {
				l, err := imagegraph.Label(r, rule, imagegraph.Options{Connectivity: c.Connectivity, Threads: threads}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if l.Count != c.Components {
					t.Fatalf("threads %d: %d components, want %d", threads, l.Count, c.Components)
				}
				if got := labelsSHA256(l.Data); got != c.SHA256 {
					t.Fatalf("threads %d: sha256 %s, want %s", threads, got, c.SHA256)
				}
			}
		})
	}
	if tested < 12 {
		t.Fatalf("only %d 2D image cases tested", tested)
	}
}
