package driver

import (
	"errors"
	"fmt"
	"testing"
)

// TestMemoryError: the error names what needs the memory and both sizes in
// whole MiB, rounded down, and is found by errors.As through wrapping.
func TestMemoryError(t *testing.T) {
	for _, tc := range []struct {
		name       string
		what       string
		need, free uint64
		want       string
	}{
		{"grid", "the grid", 3 << 30, 1<<30 + 1<<19, "cuda: the grid needs 3072 MiB of device memory, 1024 MiB are free"},
		{"under a MiB", "the graph", 1<<20 - 1, 0, "cuda: the graph needs 0 MiB of device memory, 0 MiB are free"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error = &MemoryError{What: tc.what, Need: tc.need, Free: tc.free}
			if got := err.Error(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			var m *MemoryError
			if !errors.As(fmt.Errorf("wrapped: %w", err), &m) || m.Need != tc.need || m.Free != tc.free {
				t.Errorf("errors.As: %v", m)
			}
		})
	}
}
