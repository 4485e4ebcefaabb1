package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cclabel/cclabel/batch"
)

// TestMain lets a test run the CLI as a child process (the test binary
// itself, with CCLABEL_TEST_MAIN=1), so that it can send it signals. With
// CCLABEL_TEST_READY=FILE the child makes FILE once signals no longer
// end it at once: from then on one either reaches cclabel's handler or,
// sent before main installs it, is dropped.
func TestMain(m *testing.M) {
	if os.Getenv("CCLABEL_TEST_MAIN") == "1" {
		if ready := os.Getenv("CCLABEL_TEST_READY"); ready != "" {
			signal.Notify(make(chan os.Signal, 4), os.Interrupt, syscall.SIGTERM)
			os.WriteFile(ready, nil, 0o644)
		}
		main()
	}
	os.Exit(m.Run())
}

// TestBatchInterruptLeavesCompleteOutputs interrupts a batch with SIGINT
// while it is reading a named pipe in the middle of the inputs: the inputs
// started finish, the later ones are not started, no partial file is left,
// and a rerun finishes the rest with the same bytes as an uninterrupted
// run.
func TestBatchInterruptLeavesCompleteOutputs(t *testing.T) {
	dir := t.TempDir()
	inputs := batchInputs(t, dir, 6)
	fifo := filepath.Join(dir, "in", "s0", "v02b.nii") // sorts after s0/v02.nii.gz, before s0/v04.nii.gz
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes: %v", err)
	}
	out, summary := filepath.Join(dir, "out"), filepath.Join(dir, "summary.csv")
	cmd := exec.Command(os.Args[0], "batch", filepath.Join(dir, "in"), "-o", out, "--workers", "1", "--summary", summary)
	cmd.Env = append(os.Environ(), "CCLABEL_TEST_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	// The batch blocks opening the pipe; a non-blocking open for writing
	// succeeds once it waits there.
	deadline := time.Now().Add(20 * time.Second)
	var w *os.File
	for w == nil {
		if w, err = os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err != nil {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("the batch never opened the pipe: %v", err)
			}
			w = nil
			time.Sleep(2 * time.Millisecond)
		}
	}
	cmd.Process.Signal(os.Interrupt)
	var log []string
	for line := range lines {
		log = append(log, line)
		if strings.Contains(line, "finishing the inputs in flight") {
			break
		}
	}
	w.Close() // the pipe input ends empty: it fails, and the batch stops
	for line := range lines {
		log = append(log, line)
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("exit %v, want status 130; stderr:\n%s", err, strings.Join(log, "\n"))
	}
	rows := readSummary(t, summary)
	done, cancelled := 0, 0
	for _, in := range inputs {
		switch row := rows[in]; {
		case row.Status == batch.OK && in < fifo:
			done++
		case row.Status == batch.Cancelled && in > fifo:
			cancelled++
		default:
			t.Errorf("%s: %+v", in, row)
		}
	}
	if rows[fifo].Status != batch.Failed || done != 5 || cancelled != 4 {
		t.Fatalf("pipe %+v; %d done before it, %d not started after it; stderr:\n%s", rows[fifo], done, cancelled, strings.Join(log, "\n"))
	}
	assertNoTempFilesTree(t, out)

	// The rerun finishes the rest; every output equals an uninterrupted run's.
	os.Remove(fifo)
	if r := runCLI(t, "", "batch", filepath.Join(dir, "in"), "-o", out, "--summary", summary, "-q"); r.code != 0 {
		t.Fatalf("rerun: exit %d: %s", r.code, r.stderr)
	}
	rows = readSummary(t, summary)
	for _, in := range inputs {
		if want := map[bool]batch.Status{true: batch.Skipped, false: batch.OK}[in < fifo]; rows[in].Status != want {
			t.Errorf("rerun: %s: %+v, want %s", in, rows[in], want)
		}
	}
	fresh := filepath.Join(dir, "fresh")
	if r := runCLI(t, "", "batch", filepath.Join(dir, "in"), "-o", fresh, "-q"); r.code != 0 {
		t.Fatalf("fresh run: %s", r.stderr)
	}
	n := 0
	filepath.WalkDir(fresh, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(fresh, path)
			sameFile(t, filepath.Join(out, rel), path)
			n++
		}
		return nil
	})
	if n != len(inputs) {
		t.Fatalf("%d outputs, want %d", n, len(inputs))
	}
}
