package cuda

import (
	"strings"
	"testing"
)

func TestAvailableExplains(t *testing.T) {
	s := Available()
	if !s.Available {
		// No GPU here (CI has none): the reason must say what is missing.
		if s.Reason == "" || !strings.HasPrefix(s.Reason, "cuda: ") {
			t.Fatalf("unavailable without a reason: %+v", s)
		}
		if len(s.Devices) != 0 {
			t.Fatalf("devices listed although unavailable: %+v", s)
		}
		t.Skipf("no GPU: %s", s.Reason)
	}
	for _, d := range s.Devices {
		if d.Name == "" || d.MemoryBytes == 0 || d.ComputeMajor < 3 {
			t.Errorf("implausible device %+v", d)
		}
	}
	if s.Driver == "" {
		t.Error("driver version missing")
	}
}

func TestDeviceComputeCapability(t *testing.T) {
	if got := (Device{ComputeMajor: 9, ComputeMinor: 0}).ComputeCapability(); got != "9.0" {
		t.Fatalf("ComputeCapability = %q", got)
	}
}
