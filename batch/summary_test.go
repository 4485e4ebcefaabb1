package batch

import (
	"bytes"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func sampleRows() []Row {
	return []Row{
		{Input: "in/b.nii.gz", Output: "out/b.nii.gz", Status: OK, Components: 152, Voxels: 2097152, Seconds: 0.061},
		{Input: "in/a, \"odd\".png", Output: "out/a, \"odd\".png", Status: Failed, Error: "formats: in/a.png: png: invalid format", Seconds: 0.002},
		{Input: "in/c.nrrd", Output: "out/c.nrrd", Status: Skipped},
	}
}

func TestSummaryRoundTrip(t *testing.T) {
	for _, format := range []string{"csv", "json"} {
		var buf bytes.Buffer
		if err := WriteSummary(&buf, sampleRows(), format); err != nil {
			t.Fatal(err)
		}
		got, err := ReadSummary(bytes.NewReader(buf.Bytes()), format)
		if err != nil {
			t.Fatalf("%s: %v\n%s", format, err, buf.String())
		}
		if !reflect.DeepEqual(got, sampleRows()) {
			t.Fatalf("%s: got %+v", format, got)
		}
	}
}

func TestSummaryCSVLayout(t *testing.T) {
	var buf bytes.Buffer
	WriteSummary(&buf, sampleRows()[:1], "csv")
	want := "input,output,status,error,components,voxels,seconds\nin/b.nii.gz,out/b.nii.gz,ok,,152,2097152,0.061\n"
	if buf.String() != want {
		t.Fatalf("got %q, want %q", buf.String(), want)
	}
	buf.Reset()
	WriteSummary(&buf, sampleRows()[2:], "json")
	for _, s := range []string{`"components": null`, `"voxels": null`, `"status": "skipped"`, `"seconds": 0.000`} {
		if !strings.Contains(buf.String(), s) {
			t.Errorf("JSON lacks %s:\n%s", s, buf.String())
		}
	}
}

func TestReadSummaryRejects(t *testing.T) {
	for name, c := range map[string]struct{ format, text string }{
		"csv header":        {"csv", "input,output,status,error,components,voxels\n"},
		"csv header order":  {"csv", "output,input,status,error,components,voxels,seconds\n"},
		"csv empty":         {"csv", ""},
		"csv status":        {"csv", "input,output,status,error,components,voxels,seconds\na,b,done,,1,1,0\n"},
		"csv fields":        {"csv", "input,output,status,error,components,voxels,seconds\na,b,ok,,1,1\n"},
		"csv negative":      {"csv", "input,output,status,error,components,voxels,seconds\na,b,ok,,-1,1,0\n"},
		"csv counts failed": {"csv", "input,output,status,error,components,voxels,seconds\na,b,failed,x,1,1,0\n"},
		"csv seconds":       {"csv", "input,output,status,error,components,voxels,seconds\na,b,ok,,1,1,NaN\n"},
		"csv no input":      {"csv", "input,output,status,error,components,voxels,seconds\n,b,ok,,1,1,0\n"},
		"json extra key":    {"json", `[{"input":"a","output":"b","status":"ok","error":"","components":1,"voxels":1,"seconds":0,"x":1}]`},
		"json missing key":  {"json", `[{"input":"a","output":"b","status":"ok","error":"","components":1,"voxels":1}]`},
		"json type":         {"json", `[{"input":1,"output":"b","status":"ok","error":"","components":1,"voxels":1,"seconds":0}]`},
		"json trailing":     {"json", `[] []`},
		"json object":       {"json", `{}`},
	} {
		if _, err := ReadSummary(strings.NewReader(c.text), c.format); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestMergeFiles(t *testing.T) {
	dir := t.TempDir()
	rows := sampleRows()
	a, b := filepath.Join(dir, "s0.csv"), filepath.Join(dir, "s1.json")
	if err := WriteSummaryFile(a, rows[:1]); err != nil {
		t.Fatal(err)
	}
	if err := WriteSummaryFile(b, rows[1:]); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "all.csv")
	merged, replaced, err := MergeFiles(out, []string{a, b})
	if err != nil || replaced != 0 {
		t.Fatal(err, replaced)
	}
	back, err := ReadSummaryFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []Row{rows[1], rows[0], rows[2]} // sorted by input
	if !reflect.DeepEqual(merged, want) || !reflect.DeepEqual(back, want) {
		t.Fatalf("merged %+v\nread back %+v", merged, back)
	}
	bad := filepath.Join(dir, "bad.csv")
	writeFile(t, bad, "input,output,status\n")
	if _, _, err := MergeFiles(out, []string{a, bad}); err == nil || !strings.Contains(err.Error(), "header") {
		t.Fatalf("mismatched header: %v", err)
	}
	if _, _, err := MergeFiles(filepath.Join(dir, "all.txt"), []string{a}); err == nil {
		t.Fatal("no error for a .txt output")
	}
	// Merging the merged summary with a shard's rerun: one row per input,
	// the rerun's rows winning.
	rerun := filepath.Join(dir, "s1-rerun.json")
	fixed := rows[1]
	fixed.Status, fixed.Error, fixed.Components, fixed.Voxels = OK, "", 7, 9
	if err := WriteSummaryFile(rerun, []Row{fixed}); err != nil {
		t.Fatal(err)
	}
	merged, replaced, err = MergeFiles(out, []string{out, b, rerun})
	if want := []Row{fixed, rows[0], rows[2]}; err != nil || replaced != 3 || !reflect.DeepEqual(merged, want) {
		t.Fatalf("merge with duplicates: %+v, %d replaced, %v", merged, replaced, err)
	}
}
