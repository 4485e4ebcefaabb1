package job

import (
	"os"
	"testing"
	"time"
)

func TestSetDriverDefaults(t *testing.T) {
	const v = "CUDA_DEVICE_MAX_CONNECTIONS"
	t.Run("unset", func(t *testing.T) {
		t.Setenv(v, "")
		os.Unsetenv(v)
		SetDriverDefaults()
		if got := os.Getenv(v); got != "1" {
			t.Errorf("%s = %q, want 1", v, got)
		}
	})
	t.Run("the user's kept", func(t *testing.T) {
		t.Setenv(v, "4")
		SetDriverDefaults()
		if got := os.Getenv(v); got != "4" {
			t.Errorf("%s = %q, want the user's 4", v, got)
		}
	})
}

// TestWithin: ExitGPU's holder lingers only when the labelers closed within
// closeWait, which within reports.
func TestWithin(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func()
		want bool
	}{
		{"at once", func() {}, true},
		{"too slow", func() { time.Sleep(300 * time.Millisecond) }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := within(30*time.Millisecond, c.f); got != c.want {
				t.Errorf("within = %v, want %v", got, c.want)
			}
		})
	}
}
