package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/cuda"
)

func TestDevicesAndGPUBackend(t *testing.T) {
	r := runCLI(t, "", "devices", "--json")
	var s cuda.Status
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &s) != nil {
		t.Fatalf("devices --json: exit %d, %q", r.code, r.stdout)
	}
	if s.Available {
		t.Skipf("a GPU is present: %+v", s.Devices)
	}
	if s.Reason == "" {
		t.Fatal("no reason given")
	}
	if r := runCLI(t, "", "devices"); r.code != 0 || !strings.Contains(r.stdout, s.Reason) {
		t.Fatalf("devices: exit %d, %q", r.code, r.stdout)
	}
	// Without a GPU, --backend gpu fails with the reason; auto labels on the CPU.
	r = runCLI(t, "", "graph", "../../testdata/sample-graph.txt", "--backend", "gpu")
	if r.code != 1 || !strings.Contains(r.stderr, s.Reason) {
		t.Fatalf("--backend gpu: exit %d, %q", r.code, r.stderr)
	}
	r = runCLI(t, "", "graph", "../../testdata/sample-graph.txt", "--backend", "auto", "--json")
	var g graphSummary
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &g) != nil || g.Backend != "cpu" || g.Components != 3 {
		t.Fatalf("--backend auto: exit %d, %q", r.code, r.stdout)
	}
}
