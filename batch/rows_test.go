package batch

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestRowsRecordOutcomes(t *testing.T) {
	rows := PendingRows([]Input{{Path: "a"}, {Path: "b"}, {Path: "c"}, {Path: "d"}})
	for i := range rows {
		rows[i].Output, rows[i].Components, rows[i].Voxels = "out", 7, 100
	}
	rows[0].Record(Outcome{Index: 0, Seconds: 1.5})
	rows[1].Record(Outcome{Index: 1, Err: errors.New("a: bad\nheader"), Seconds: 0.25})
	rows[2].Record(Outcome{Index: 2, Skipped: true})
	want := []Row{
		{Input: "a", Output: "out", Status: OK, Components: 7, Voxels: 100, Seconds: 1.5},
		{Input: "b", Output: "out", Status: Failed, Error: "a: bad header", Seconds: 0.25},
		{Input: "c", Output: "out", Status: Skipped},
		{Input: "d", Output: "out", Status: Cancelled, Error: "interrupted before it started", Components: 7, Voxels: 100},
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, rows[i], want[i])
		}
	}
	counts, voxels := Tally(rows)
	if voxels != 200 || counts[OK] != 1 || counts[Failed] != 1 || counts[Skipped] != 1 || counts[Cancelled] != 1 {
		t.Errorf("tally %v, %d voxels", counts, voxels)
	}
}

func TestUpToDateNeedsEveryOutputNewer(t *testing.T) {
	dir := t.TempDir()
	in, a, b := filepath.Join(dir, "in.nii"), filepath.Join(dir, "a.nii.gz"), filepath.Join(dir, "a.stats.csv")
	for _, p := range []string{in, a, b} {
		writeFile(t, p, "x")
	}
	now := time.Now()
	os.Chtimes(in, now.Add(-2*time.Hour), now.Add(-2*time.Hour))
	if !UpToDate(in, []string{a, b}) {
		t.Error("outputs newer than the input: not up to date")
	}
	if !UpToDate(in, nil) {
		t.Error("no outputs asked for: not up to date")
	}
	os.Chtimes(b, now.Add(-3*time.Hour), now.Add(-3*time.Hour))
	if UpToDate(in, []string{a, b}) {
		t.Error("an output older than the input: up to date")
	}
	if UpToDate(in, []string{a, filepath.Join(dir, "missing.png")}) {
		t.Error("a missing output: up to date")
	}
	if UpToDate(filepath.Join(dir, "gone.nii"), []string{a}) {
		t.Error("a missing input: up to date")
	}
}
