package batch

import (
	"errors"
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
		{"@" + list, filepath.Join(dir, "loose/nope*.png")}} {
		if _, err := Expand(bad, ExpandOptions{Known: known}); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	// The output folder given as an input folder is refused, by path
	// even before it exists, and through a link to it.
	for _, c := range []struct{ arg, out string }{
		{filepath.Join(dir, "cohort"), filepath.Join(dir, "cohort")},
		{filepath.Join(dir, "cohort") + "/", filepath.Join(dir, "cohort/s1/..")},
	} {
		if _, err := Expand([]string{c.arg}, ExpandOptions{Known: known, Skip: c.out}); !errors.Is(err, ErrOutputIsInput) {
			t.Errorf("%s -o %s: %v, want an output folder error", c.arg, c.out, err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "cohort"), filepath.Join(dir, "link")); err == nil {
		if _, err := Expand([]string{filepath.Join(dir, "cohort")}, ExpandOptions{Known: known, Skip: filepath.Join(dir, "link")}); err == nil {
			t.Error("-o a link to the input folder: no error")
		}
		os.Remove(filepath.Join(dir, "link"))
	}
	// A glob passes over the output folder it matches.
	got, err = Expand([]string{filepath.Join(dir, "*")}, ExpandOptions{Known: known, Skip: filepath.Join(dir, "out")})
	if err != nil || len(got) != 4 {
		t.Errorf("glob over the output folder: %v, %v", got, err)
	}
	// A not yet existing output folder inside the input folder is passed
	// over by path: another shard may create it during the walk.
	got, err = Expand([]string{filepath.Join(dir, "cohort")}, ExpandOptions{Known: known, Skip: filepath.Join(dir, "cohort/s2")})
	if err != nil || len(got) != 1 || got[0].Rel != "s1/a.nii.gz" {
		t.Errorf("skip by path: %v, %v", got, err)
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	if _, err := Expand([]string{empty}, ExpandOptions{Known: known}); err == nil {
		t.Error("no error for no inputs")
	}
}

func TestExpandGlobMirrorsFoldersBelowItsBase(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"data/siteA/t1.nii.gz", "data/siteB/t1.nii.gz", "data/siteB/sub/t2.nii.gz"} {
		writeFile(t, filepath.Join(dir, f), "x")
	}
	known := func(name string) bool { return strings.HasSuffix(name, ".nii.gz") }
	for pattern, want := range map[string][]string{
		"data/*/t1.nii.gz": {"siteA/t1.nii.gz", "siteB/t1.nii.gz"},
		"data/site*":       {"siteA/t1.nii.gz", "siteB/sub/t2.nii.gz", "siteB/t1.nii.gz"},
		"data/siteB/*":     {"sub/t2.nii.gz", "t1.nii.gz"},
	} {
		got, err := Expand([]string{filepath.Join(dir, pattern)}, ExpandOptions{Known: known})
		if err != nil {
			t.Fatal(err)
		}
		var rels []string
		for _, in := range got {
			rels = append(rels, in.Rel)
		}
		if !reflect.DeepEqual(rels, want) {
			t.Errorf("%s: %q, want %q", pattern, rels, want)
		}
	}
}

func TestExpandFollowsALinkedFolderArgument(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "real/s1/a.nii.gz"), "x")
	link := filepath.Join(dir, "cohort")
	if err := os.Symlink(filepath.Join(dir, "real"), link); err != nil {
		t.Skip(err)
	}
	os.Symlink("..", filepath.Join(dir, "real/s1/up")) // a cycle, not walked into
	got, err := Expand([]string{link}, ExpandOptions{Known: func(string) bool { return true }})
	want := []Input{{filepath.Join(link, "s1/a.nii.gz"), "s1/a.nii.gz"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, %v; want %v", got, err, want)
	}
}

func TestExpandListKeepsMissingLines(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.png"), "x")
	list := filepath.Join(dir, "list.txt")
	writeFile(t, list, "# cohort\n\n"+filepath.Join(dir, "a.png")+"\n"+filepath.Join(dir, "gone.png")+"\n")
	got, err := Expand([]string{"@" + list}, ExpandOptions{})
	want := []Input{{filepath.Join(dir, "a.png"), "a.png"}, {filepath.Join(dir, "gone.png"), "gone.png"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, %v; want %v", got, err, want)
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
