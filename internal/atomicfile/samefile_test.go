package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckDistinct(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	os.WriteFile(p("a.png"), []byte("a"), 0o644)
	os.WriteFile(p("b.png"), []byte("b"), 0o644)
	os.WriteFile(p("v.hdr"), []byte("h"), 0o644)
	os.Mkdir(p("sub"), 0o755)
	if err := os.Link(p("a.png"), p("hard.png")); err != nil {
		t.Skipf("no hard links: %v", err)
	}
	if err := os.Symlink(p("a.png"), p("soft.png")); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	os.Symlink(p("sub"), p("subdir-link"))
	in := func(paths ...string) []Named {
		var f []Named
		for _, x := range paths {
			f = append(f, Named{"input", x})
		}
		return f
	}
	cases := []struct {
		name    string
		inputs  []Named
		outputs []Named
		want    string // the error, "" for none
	}{
		{"distinct", in(p("a.png")), []Named{{"-o", p("c.png")}, {"--labels", p("c.npy")}}, ""},
		{"same path", in(p("a.png")), []Named{{"-o", p("a.png")}}, "-o " + p("a.png") + " would replace the input " + p("a.png")},
		{"spelled otherwise", in(p("a.png")), []Named{{"-o", filepath.Join(dir, "sub", "..", "a.png")}}, "would replace the input"},
		{"hard link", in(p("a.png")), []Named{{"-o", p("hard.png")}}, "would replace the input"},
		{"symbolic link", in(p("soft.png")), []Named{{"-o", p("a.png")}}, "would replace the input"},
		{"second input", in(p("b.png"), p("a.png")), []Named{{"-o", p("a.png")}}, "would replace the input " + p("a.png")},
		{"two outputs", in(p("a.png")), []Named{{"-o", p("x.png")}, {"--labels", p("x.png")}}, "-o " + p("x.png") + " and --labels " + p("x.png") + " are the same file"},
		{"two new outputs through a linked folder", nil, []Named{{"-o", p("sub/x.npy")}, {"--labels", p("subdir-link/x.npy")}}, "are the same file"},
		{"NIfTI pair", in(p("v.hdr")), []Named{{"-o", p("v.img")}}, "would replace the input " + p("v.img")},
		{"standard streams", in("-"), []Named{{"-o", "-"}, {"--stats", "-"}, {"--labels", ""}}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckDistinct(c.inputs, c.outputs)
			var e *SameFileError
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("error %v", err)
			case c.want != "" && !errors.As(err, &e):
				t.Fatalf("error %v, want a *SameFileError", err)
			case c.want != "" && !strings.Contains(err.Error(), c.want):
				t.Fatalf("error %q, want %q", err, c.want)
			}
		})
	}
}

func ExampleCheckDistinct() {
	err := CheckDistinct([]Named{{"input", "scan.nii.gz"}}, []Named{{"-o", "./scan.nii.gz"}})
	fmt.Println(err)
	// Output: -o ./scan.nii.gz would replace the input scan.nii.gz
}
