package samefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
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
	in := func(paths ...string) []File {
		var f []File
		for _, x := range paths {
			f = append(f, File{"input", x})
		}
		return f
	}
	cases := []struct {
		name    string
		inputs  []File
		outputs []File
		want    string // the error, "" for none
	}{
		{"distinct", in(p("a.png")), []File{{"-o", p("c.png")}, {"--labels", p("c.npy")}}, ""},
		{"same path", in(p("a.png")), []File{{"-o", p("a.png")}}, "-o " + p("a.png") + " would replace the input " + p("a.png")},
		{"spelled otherwise", in(p("a.png")), []File{{"-o", filepath.Join(dir, "sub", "..", "a.png")}}, "would replace the input"},
		{"hard link", in(p("a.png")), []File{{"-o", p("hard.png")}}, "would replace the input"},
		{"symbolic link", in(p("soft.png")), []File{{"-o", p("a.png")}}, "would replace the input"},
		{"second input", in(p("b.png"), p("a.png")), []File{{"-o", p("a.png")}}, "would replace the input " + p("a.png")},
		{"two outputs", in(p("a.png")), []File{{"-o", p("x.png")}, {"--labels", p("x.png")}}, "-o " + p("x.png") + " and --labels " + p("x.png") + " are the same file"},
		{"two new outputs through a linked folder", nil, []File{{"-o", p("sub/x.npy")}, {"--labels", p("subdir-link/x.npy")}}, "are the same file"},
		{"NIfTI pair", in(p("v.hdr")), []File{{"-o", p("v.img")}}, "would replace the input " + p("v.img")},
		{"standard streams", in("-"), []File{{"-o", "-"}, {"--stats", "-"}, {"--labels", ""}}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Check(c.inputs, c.outputs)
			var e *Error
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("error %v", err)
			case c.want != "" && !errors.As(err, &e):
				t.Fatalf("error %v, want an *Error", err)
			case c.want != "" && !strings.Contains(err.Error(), c.want):
				t.Fatalf("error %q, want %q", err, c.want)
			}
		})
	}
}

func ExampleCheck() {
	err := Check([]File{{"input", "scan.nii.gz"}}, []File{{"-o", "./scan.nii.gz"}})
	fmt.Println(err)
	// Output: -o ./scan.nii.gz would replace the input scan.nii.gz
}
