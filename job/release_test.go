package job

import (
	"context"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/internal/atomicfile"
)

// TestRunFilesTellsTheLast checks that runFiles tells only the last file
// that it is the last (the job releases the GPU after labeling it), also
// when a file before it fails.
func TestRunFilesTellsTheLast(t *testing.T) {
	for _, c := range []struct {
		name  string
		files []string
		fail  string
		want  []bool
	}{
		{"one", []string{"a"}, "", []bool{true}},
		{"three", []string{"a", "b", "c"}, "", []bool{false, false, true}},
		{"a failure before the last", []string{"a", "b", "c"}, "b", []bool{false, false, true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []bool
			_, _ = runFiles(context.Background(), c.files, Progress{W: io.Discard, Quiet: true},
				func(string) []string { return nil },
				func(f string, last bool) (int, error) {
					got = append(got, last)
					if f == c.fail {
						return 0, errors.New("fails")
					}
					return 1, nil
				})
			if !slices.Equal(got, c.want) {
				t.Errorf("last flags %v, want %v", got, c.want)
			}
		})
	}
}

// TestRunFilesCountsTheCommit checks that a summary's write stage and total
// take in the commit of its outputs, which replaces an existing file: the
// commit runs after the job's function returns, and the process's wall time
// would otherwise exceed the summary's total by it.
func TestRunFilesCountsTheCommit(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.bin")
	big := make([]byte, 8<<20)
	for round := range 2 { // a fresh output, then one that replaces it
		s, err := runFiles(context.Background(), []string{out}, Progress{W: io.Discard, Quiet: true},
			func(o string) []string { return []string{o} },
			func(o string, last bool) (VolumeSummary, error) {
				err := atomicfile.WriteFile(o, func(w io.Writer) error {
					_, err := w.Write(big)
					return err
				})
				return VolumeSummary{Seconds: StageTimes{Write: 1, Total: 2}}, err
			})
		if err != nil {
			t.Fatal(err)
		}
		got := s[0].Seconds
		if got.Write <= 1 || math.Abs(got.Total-got.Write-1) > 1e-9 {
			t.Errorf("round %d: seconds %+v: want the commit's time added to write 1 and total 2", round, got)
		}
		if st, err := os.Stat(out); err != nil || st.Size() != int64(len(big)) {
			t.Fatalf("round %d: the output: %v", round, err)
		}
	}
}
