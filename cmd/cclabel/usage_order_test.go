package main

import (
	"strings"
	"testing"
)

// TestUsageErrorsComeFirst: of several usage errors, a missing input or -o
// is the one reported, as it always was.
func TestUsageErrorsComeFirst(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"merge", "v.npy", "dir", "--shape", "1,2"}, "merge: give -o for the label volume"},
		{[]string{"batch", "a.png", "--max-memory", "1Q"}, "batch: give -o OUTDIR for the outputs"},
		{[]string{"batch", "--shards", "-1"}, "batch: want at least one INPUT"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := runCLI(t, "", c.args...)
			if r.code != 2 || !strings.Contains(r.stderr, c.want) {
				t.Errorf("exit %d, %q; want 2 and %q", r.code, r.stderr, c.want)
			}
		})
	}
}
