package job

import (
	"os"
	"testing"
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
