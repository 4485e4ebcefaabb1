package incremental

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzReplay replays arbitrary bytes as an update file on 16 vertices: an
// error or answers, never a panic; an accepted file gives one answer line
// per query, and the component count is that of the union-find.
func FuzzReplay(f *testing.F) {
	for _, s := range []string{
		"i 0 1\nq 0 1\nc 1\n",
		"# comment\n\ni 3 4\ti 4 5\nq 3 5\n",
		"i 0 99\n", "q -1 2\n", "x 1 2\n", "c\n", "i 1\n", "i 18446744073709551616 1\n",
		"i 1 2 3\n", "c 15\nc 16\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		u, err := New(16, 2)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		stats, err := Replay(bytes.NewReader(data), u, &out, ReplayOptions{MaxBatch: 3})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			return
		}
		if lines := int64(strings.Count(out.String(), "\n")); lines != stats.Queries {
			t.Fatalf("%d answer lines for %d queries", lines, stats.Queries)
		}
		if stats.Components != u.Components() {
			t.Fatalf("stats say %d components, the union-find %d", stats.Components, u.Components())
		}
	})
}
