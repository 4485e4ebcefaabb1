package job

import (
	"context"
	"errors"
	"io"
	"slices"
	"testing"
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
