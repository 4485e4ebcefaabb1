package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/bench"
	"github.com/cclabel/cclabel/job"
)

func TestDevicesAndGPUBackend(t *testing.T) {
	r := runCLI(t, "", "devices", "--json")
	var s cclabel.DeviceStatus
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
	var g job.GraphSummary
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &g) != nil || g.Backend != "cpu" || g.Components != 3 {
		t.Fatalf("--backend auto: exit %d, %q", r.code, r.stdout)
	}
}

func TestBench(t *testing.T) {
	if testing.Short() {
		t.Skip("generates inputs of a few million items")
	}
	r := runCLI(t, "", "bench", "--workloads", "graph,image", "--backends", "serial,cpu,gpu", "--repeat", "1", "--json")
	var results []bench.Result
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &results) != nil {
		t.Fatalf("exit %d: %q %s", r.code, r.stdout, r.stderr)
	}
	if len(results) != 6 {
		t.Fatalf("%d results, want 6", len(results))
	}
	for _, res := range results {
		if res.Note != "" {
			if res.Backend != "gpu" || !strings.HasPrefix(res.Note, "skipped: ") {
				t.Errorf("unexpected note %+v", res)
			}
			continue
		}
		if res.KernelMS <= 0 || res.TotalMS < res.KernelMS || res.Items <= 0 || res.PerSec <= 0 {
			t.Errorf("implausible result %+v", res)
		}
	}
	// The plans of --modes, --connectivity and --inputs are tested in package bench.
	for _, bad := range [][]string{{"--modes", "quantum"}, {"--connectivity", "5"}, {"--inputs", "noise"}} {
		if r := runCLI(t, "", append([]string{"bench"}, bad...)...); r.code != 2 {
			t.Errorf("bench %v: exit %d, want 2", bad, r.code)
		}
	}
	if r := runCLI(t, "", "bench", "--backends", "quantum"); r.code != 2 {
		t.Errorf("unknown backend: exit %d", r.code)
	}
}
