package imagegraph_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats/imageio"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/testkit"
)

func TestExpectedImages(t *testing.T) {
	cases := testkit.Cases(t, func(c testkit.Case) bool { return strings.HasPrefix(c.File, "images/") })
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
			img, err := imageio.DecodeFile(filepath.Join(testkit.Dir(t), c.File))
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
				if got := testkit.LabelsSHA256(l.Data); got != c.SHA256 {
					t.Fatalf("threads %d: sha256 %s, want %s", threads, got, c.SHA256)
				}
			}
		})
	}
	if tested < 12 {
		t.Fatalf("only %d 2D image cases tested", tested)
	}
}
