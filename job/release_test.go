package job

import (
	"context"
	"errors"
	"fmt"
	"io"
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
				func(f string, last bool, _ func() error) (int, error) {
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

// TestAllOrNothingCommit checks that a write committing its outputs itself
// finds them in place once commit returns (within its own time), that a
// write that does not is committed after it returns, and that a failing
// write leaves nothing.
func TestAllOrNothingCommit(t *testing.T) {
	for _, c := range []struct {
		name            string
		commit, failing bool
	}{
		{"commits itself", true, false},
		{"committed after", false, false},
		{"fails", false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out.txt")
			err := allOrNothingCommit([]string{path}, func(commit func() error) error {
				if err := atomicfile.WriteFile(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
					return err
				}
				if _, err := os.Stat(path); err == nil {
					t.Error("output in place before the commit")
				}
				if c.commit {
					discarded := false
					if err := commitDiscarding(commit, true, func() { discarded = true }); err != nil {
						return err
					}
					if got, _ := os.ReadFile(path); string(got) != "new" || !discarded {
						t.Errorf("after commitDiscarding: %q, discarded %v", got, discarded)
					}
				}
				if c.failing {
					return errors.New("fails")
				}
				return nil
			})
			got, rerr := os.ReadFile(path)
			if c.failing {
				if err == nil || rerr == nil {
					t.Fatalf("failing write: err %v, output %q", err, got)
				}
				return
			}
			if err != nil || string(got) != "new" {
				t.Fatalf("err %v, output %q", err, got)
			}
		})
	}
}

// TestCommitDiscardingLast: commitDiscarding discards only after the last
// file, and returns commit's error either way.
func TestCommitDiscardingLast(t *testing.T) {
	for _, last := range []bool{false, true} {
		t.Run(fmt.Sprint("last=", last), func(t *testing.T) {
			committed, discarded := false, false
			fail := errors.New("commit failed")
			err := commitDiscarding(func() error { committed = true; return fail }, last, func() { discarded = true })
			if !errors.Is(err, fail) || !committed || discarded != last {
				t.Errorf("err %v, committed %v, discarded %v", err, committed, discarded)
			}
		})
	}
}
