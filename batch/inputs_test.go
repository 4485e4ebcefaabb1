package batch

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestExpand(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"cohort/s1/a.nii.gz", "cohort/s2/a.nii.gz", "cohort/notes.txt", "cohort/.hidden/x.nii",
		"cohort/.tmp.nii", "out/old.nii.gz", "loose/b.png", "loose/c.png", "loose/readme.md"} {
		writeFile(t, filepath.Join(dir, f), "x")
	}
	list := filepath.Join(dir, "list.txt")
	writeFile(t, list, "# chosen\n"+filepath.Join(dir, "loose/c.png")+"\n\n")
	known := func(name string) bool { return strings.HasSuffix(name, ".nii.gz") || strings.HasSuffix(name, ".png") }
	got, err := Expand([]string{filepath.Join(dir, "cohort"), filepath.Join(dir, "loose/*"), "@" + list,
		filepath.Join(dir, "loose/readme.md")}, ExpandOptions{Known: known, Skip: filepath.Join(dir, "out")})
	if err != nil {
		t.Fatal(err)
	}
	want := []Input{
		{filepath.Join(dir, "cohort/s1/a.nii.gz"), "s1/a.nii.gz"},
		{filepath.Join(dir, "cohort/s2/a.nii.gz"), "s2/a.nii.gz"},
		{filepath.Join(dir, "loose/b.png"), "b.png"},
		{filepath.Join(dir, "loose/c.png"), "c.png"},
		{filepath.Join(dir, "loose/readme.md"), "readme.md"}, // named directly: always taken
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %v\nwant %v", got, want)
	}
	// The output folder inside an input folder is not walked.
	got, err = Expand([]string{dir}, ExpandOptions{Known: known, Skip: filepath.Join(dir, "out")})
	if err != nil || len(got) != 4 {
		t.Fatalf("got %v, %v; want the 4 inputs outside out/", got, err)
	}
	for _, bad := range [][]string{{filepath.Join(dir, "nope.nii")}, {filepath.Join(dir, "*.zzz")}, {"@" + filepath.Join(dir, "nolist")},
		{filepath.Join(dir, "out/old.nii.gz"), "@" + filepath.Join(dir, "cohort/notes.txt")}} {
		if _, err := Expand(bad, ExpandOptions{Known: known}); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	if _, err := Expand([]string{empty}, ExpandOptions{Known: known}); err == nil {
		t.Error("no error for no inputs")
	}
}

func TestReadList(t *testing.T) {
	got, err := ReadList(strings.NewReader("a.nii\r\n  # comment\n\n  b c.png  \n"))
	if err != nil || !reflect.DeepEqual(got, []string{"a.nii", "b c.png"}) {
		t.Fatalf("got %q, %v", got, err)
	}
	for _, bad := range []string{"a\x00b\n", "ok\n\xff\xfe\n", strings.Repeat("x", maxListLine+1)} {
		if _, err := ReadList(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: no error", bad[:min(len(bad), 20)])
		}
	}
}
