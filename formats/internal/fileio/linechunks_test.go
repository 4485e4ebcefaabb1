package fileio

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestForLineChunksKeepsOrder checks that every line reaches commit once,
// in input order, with its number, for chunk sizes that cut lines and
// for one and several goroutines, and that the line count is returned.
func TestForLineChunksKeepsOrder(t *testing.T) {
	var b strings.Builder
	b.WriteString("first\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "line %d %s\r\n", i+2, strings.Repeat("x", i%37))
	}
	b.WriteString("last without a newline")
	input := b.String()
	rest := input[len("first\n"):]
	for _, threads := range []int{1, 3} {
		for _, size := range []int{1, 7, 100, DefaultChunkBytes} {
			var got []string
			next := 0
			lines, err := ForLineChunks(strings.NewReader(rest), 1, threads, size,
				func(c *LineChunk) []string {
					var out []string
					c.EachLine(func(num int, line []byte) bool {
						out = append(out, fmt.Sprintf("%d:%s", num, line))
						return true
					})
					return out
				},
				func(c *LineChunk, res []string) error {
					if c.Index < next {
						return fmt.Errorf("chunk %d after %d", c.Index, next)
					}
					next = c.Index + 1
					got = append(got, res...)
					return nil
				})
			if err != nil {
				t.Fatalf("%d threads, chunks of %d: %v", threads, size, err)
			}
			if lines != 5002 || len(got) != 5001 {
				t.Fatalf("%d threads, chunks of %d: %d lines, %d committed", threads, size, lines, len(got))
			}
			for i, l := range got[:5000] {
				want := fmt.Sprintf("%d:line %d %s", i+2, i+2, strings.Repeat("x", i%37))
				if l != want {
					t.Fatalf("%d threads, chunks of %d: line %q, want %q", threads, size, l, want)
				}
			}
			if got[5000] != "5002:last without a newline" {
				t.Fatalf("%d threads, chunks of %d: last line %q", threads, size, got[5000])
			}
		}
	}
	if _, err := ForLineChunks(bytes.NewReader(nil), 0, 2, 10, func(*LineChunk) int { return 0 },
		func(*LineChunk, int) error { return nil }); err != nil {
		t.Errorf("empty input: %v", err)
	}
}
