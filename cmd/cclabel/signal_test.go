package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cclabel/cclabel/internal/atomicfile"
)

// child is a cclabel process started by a test (the test binary, see
// TestMain).
type child struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	stdout io.ReadCloser // when asked for: left unread, it blocks writes to stdout
}

// startChild starts cclabel with args; with blockStdout its stdout is a
// pipe nobody reads.
func startChild(t *testing.T, blockStdout bool, args ...string) *child {
	t.Helper()
	c := &child{cmd: exec.Command(os.Args[0], args...)}
	c.cmd.Env = append(os.Environ(), "CCLABEL_TEST_MAIN=1")
	c.cmd.Stderr = &c.stderr
	if blockStdout {
		var err error
		if c.stdout, err = c.cmd.StdoutPipe(); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.cmd.Process.Kill() })
	return c
}

// wait returns the child's exit status.
func (c *child) wait(t *testing.T) int {
	t.Helper()
	err := c.cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	t.Fatal(err)
	return -1
}

// waitFor polls until cond holds, failing after 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// pipeWriter opens the named pipe fifo for writing once a child has
// opened it for reading (blocking there): a non-blocking open succeeds
// only then. Closing it ends the child's input.
func pipeWriter(t *testing.T, fifo string) *os.File {
	t.Helper()
	var w *os.File
	waitFor(t, "the child to open the pipe", func() bool {
		var err error
		w, err = os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		return err == nil
	})
	return w
}

// temps returns the temporary files in dir.
func temps(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if atomicfile.IsTemp(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

// noisePNG writes a w×h mask of random pixels, whose colour map
// compresses badly.
func noisePNG(t *testing.T, path string, w, h int) {
	seed := uint32(1)
	writeTestPNG(t, path, w, h, func(x, y int) uint8 {
		seed = seed*1664525 + 1013904223
		return uint8(seed >> 31)
	})
}

// TestSignalsLeaveNothing: SIGINT or SIGTERM while a command reads its
// input, or between its outputs, removes every temporary file, writes
// none of the input's outputs, names them, and exits 130 or 143; the
// input is left byte for byte.
func TestSignalsLeaveNothing(t *testing.T) {
	dir := t.TempDir()
	img := filepath.Join(dir, "noise.png")
	noisePNG(t, img, 400, 400)
	before, _ := os.ReadFile(img)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		want := 128 + int(sig)
		t.Run("reading/"+sig.String(), func(t *testing.T) {
			out := t.TempDir()
			fifo := filepath.Join(out, "in.nii")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Skipf("no named pipes: %v", err)
			}
			labels, stats := filepath.Join(out, "l.nii.gz"), filepath.Join(out, "s.csv")
			c := startChild(t, false, "volume", fifo, "-o", labels, "--stats", stats)
			w := pipeWriter(t, fifo)
			defer w.Close()
			c.cmd.Process.Signal(sig)
			if code := c.wait(t); code != want {
				t.Fatalf("exit %d, want %d: %s", code, want, c.stderr.String())
			}
			msg := fmt.Sprintf("cclabel: interrupted (%s): %s, %s not written\n", sigName(sig), labels, stats)
			if c.stderr.String() != msg {
				t.Errorf("stderr %q, want %q", c.stderr.String(), msg)
			}
			if entries, _ := os.ReadDir(out); len(entries) != 1 {
				t.Errorf("folder holds %d files, want the pipe alone", len(entries))
			}
		})
		t.Run("between outputs/"+sig.String(), func(t *testing.T) {
			out := t.TempDir()
			labels, stats := filepath.Join(out, "l.npy"), filepath.Join(out, "s.csv")
			// The colour map goes last, to a pipe nobody reads: the label
			// array and the statistics are written (complete once the
			// child blocks on the pipe), not yet in place.
			c := startChild(t, true, "label", img, "--labels", labels, "--stats", stats, "-o", "-")
			waitFor(t, "two complete temporary files", func() bool { return len(temps(out)) == 2 })
			time.Sleep(20 * time.Millisecond) // into the blocked write
			c.cmd.Process.Signal(sig)
			if code := c.wait(t); code != want {
				t.Fatalf("exit %d, want %d: %s", code, want, c.stderr.String())
			}
			if msg := fmt.Sprintf("%s, %s not written", labels, stats); !strings.Contains(c.stderr.String(), msg) {
				t.Errorf("stderr %q, want %q", c.stderr.String(), msg)
			}
			if entries, _ := os.ReadDir(out); len(entries) != 0 {
				t.Errorf("folder holds %v, want nothing", entries)
			}
		})
	}
	if after, _ := os.ReadFile(img); !bytes.Equal(before, after) {
		t.Error("the input changed")
	}
}

// sigName is the name interrupt prints.
func sigName(sig syscall.Signal) string { return signalName(sig) }

// TestSignalAnyTimeLeavesWholeOrNothing sends SIGTERM at several points
// of a volume's run: the run ends with every output complete and equal to
// an uninterrupted run's (exit 0), or with none of them (exit 143), and
// never leaves a temporary file.
func TestSignalAnyTimeLeavesWholeOrNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "v.nii.gz")
	if r := runCLI(t, "", "gen", "volume", "--size", "96,96,96", "--kind", "blobs", "--seed", "2", "-o", in); r.code != 0 {
		t.Fatal(r.stderr)
	}
	args := func(out string) []string {
		return []string{"volume", in, "-o", out + "/l.nii.gz", "--labels", out + "/l.npy", "--preview", out + "/p.png", "--stats", out + "/s.csv", "--threads", "1"}
	}
	ref := filepath.Join(dir, "ref")
	os.Mkdir(ref, 0o755)
	if r := runCLI(t, "", args(ref)...); r.code != 0 {
		t.Fatal(r.stderr)
	}
	want := tree(t, ref)
	interrupted := 0
	for _, delay := range []time.Duration{0, 3, 8, 15, 25, 40, 70, 120} {
		out := filepath.Join(dir, fmt.Sprint(delay))
		os.Mkdir(out, 0o755)
		ready := filepath.Join(dir, fmt.Sprint(delay, ".ready"))
		t.Setenv("CCLABEL_TEST_READY", ready)
		c := startChild(t, false, args(out)...)
		waitFor(t, "the child to start", func() bool { _, err := os.Stat(ready); return err == nil })
		time.Sleep(delay * time.Millisecond)
		c.cmd.Process.Signal(syscall.SIGTERM)
		switch code := c.wait(t); code {
		case 0:
			assertSameTree(t, out, want, fmt.Sprintf("SIGTERM at %d ms, exit 0", delay))
		case 143: // none of the outputs, or, when the signal came after their commit, all
			interrupted++
			if len(tree(t, out)) != 0 {
				assertSameTree(t, out, want, fmt.Sprintf("SIGTERM at %d ms, exit 143 after the commit", delay))
			}
		default:
			t.Fatalf("SIGTERM at %d ms: exit %d: %s", delay, code, c.stderr.String())
		}
	}
	if interrupted == 0 {
		t.Error("no signal arrived while the run was in progress")
	}
	t.Logf("%d of 8 runs interrupted", interrupted)
}

// TestKillThenRerunCleansUp: SIGKILL leaves a run's complete temporary
// files behind (nothing can remove them); a rerun removes them, as they
// carry the dead process's id, and writes every output.
func TestKillThenRerunCleansUp(t *testing.T) {
	dir := t.TempDir()
	img := filepath.Join(dir, "noise.png")
	noisePNG(t, img, 400, 400)
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	labels, stats := filepath.Join(out, "l.npy"), filepath.Join(out, "s.csv")
	c := startChild(t, true, "label", img, "--labels", labels, "--stats", stats, "-o", "-")
	waitFor(t, "two complete temporary files", func() bool { return len(temps(out)) == 2 })
	c.cmd.Process.Kill()
	c.wait(t)
	if n := len(temps(out)); n != 2 {
		t.Fatalf("%d temporary files after SIGKILL, want 2", n)
	}
	// A live process's temporary file (locked, as a writer holds it) is
	// left alone.
	live := filepath.Join(out, atomicfile.TempPrefix("x.png")+"1")
	os.WriteFile(live, nil, 0o644)
	lock, _ := os.Open(live)
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Skipf("no file locks: %v", err)
	}
	if r := runCLI(t, "", "label", img, "--labels", labels, "--stats", stats, "-o", filepath.Join(out, "c.png"), "-q"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if got := temps(out); len(got) != 1 || got[0] != filepath.Base(live) {
		t.Errorf("after the rerun: temporary files %v, want only the live process's", got)
	}
	ref := filepath.Join(dir, "ref")
	os.Mkdir(ref, 0o755)
	runCLI(t, "", "label", img, "--labels", filepath.Join(ref, "l.npy"), "--stats", filepath.Join(ref, "s.csv"), "-o", filepath.Join(ref, "c.png"), "-q")
	os.Remove(live)
	assertSameTree(t, out, tree(t, ref), "after the rerun")
}

// TestBatchKillThenRerun: a batch killed while it reads an input leaves
// that input's claim; the rerun takes it over, labels the rest, and
// leaves no claim or temporary file.
func TestBatchKillThenRerun(t *testing.T) {
	dir := t.TempDir()
	inputs := batchInputs(t, dir, 4)
	fifo := filepath.Join(dir, "in", "s0", "v01b.nii")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes: %v", err)
	}
	out := filepath.Join(dir, "out")
	c := startChild(t, false, "batch", filepath.Join(dir, "in"), "-o", out, "--workers", "1", "-q")
	w := pipeWriter(t, fifo)
	defer w.Close() // after the kill: the input never ends before it
	claim := atomicfile.ClaimPath(filepath.Join(out, "s0", "v01b"))
	c.cmd.Process.Kill()
	c.wait(t)
	if _, err := os.Stat(claim); err != nil {
		t.Fatalf("no claim left by the killed run: %v", err)
	}
	os.Remove(fifo)
	if r := runCLI(t, "", "batch", filepath.Join(dir, "in"), "-o", out, "-q"); r.code != 0 {
		t.Fatalf("rerun: %s", r.stderr)
	}
	assertNoLeftovers(t, out)
	fresh := filepath.Join(dir, "fresh")
	if r := runCLI(t, "", "batch", filepath.Join(dir, "in"), "-o", fresh, "-q"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	assertSameTree(t, out, tree(t, fresh), "after the rerun")
	if len(tree(t, fresh)) != len(inputs) {
		t.Errorf("%d outputs for %d inputs", len(tree(t, fresh)), len(inputs))
	}
}

// TestConcurrentBatchesShareTheWork: two batches started together on one
// folder label each input once between them, and write what one run
// writes.
func TestConcurrentBatchesShareTheWork(t *testing.T) {
	dir := t.TempDir()
	inputs := batchInputs(t, dir, 12)
	out := filepath.Join(dir, "out")
	var runs []*child
	for i := range 2 {
		runs = append(runs, startChild(t, false, "batch", filepath.Join(dir, "in"), "-o", out, "--workers", "1",
			"--summary", filepath.Join(dir, fmt.Sprintf("s%d.csv", i)), "-q"))
	}
	for _, c := range runs {
		if code := c.wait(t); code != 0 {
			t.Fatalf("exit %d: %s", code, c.stderr.String())
		}
	}
	s0, s1 := readSummary(t, filepath.Join(dir, "s0.csv")), readSummary(t, filepath.Join(dir, "s1.csv"))
	shared := 0
	for _, in := range inputs {
		if n := btoi(s0[in].Status == "ok") + btoi(s1[in].Status == "ok"); n != 1 {
			t.Errorf("%s labeled %d times: %+v / %+v", in, n, s0[in], s1[in])
		}
		if strings.Contains(s0[in].Error+s1[in].Error, "being labeled by another run") {
			shared++
		}
	}
	t.Logf("%d inputs skipped while the other run labeled them", shared)
	fresh := filepath.Join(dir, "fresh")
	if r := runCLI(t, "", "batch", filepath.Join(dir, "in"), "-o", fresh, "-q"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	assertSameTree(t, out, tree(t, fresh), "two runs")
	assertNoLeftovers(t, out)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestSignalsEveryCommand: graph, convert and merge stopped by SIGINT or
// SIGTERM while they read their input (a named pipe), and gen while it
// makes a volume, exit 130 or 143 and leave no output and no temporary
// file.
func TestSignalsEveryCommand(t *testing.T) {
	dir := t.TempDir()
	vol := filepath.Join(dir, "v.npy")
	if r := runCLI(t, "", "gen", "volume", "--size", "40,30,24", "--density", "0.4", "-o", vol); r.code != 0 {
		t.Fatal(r.stderr)
	}
	chunks := filepath.Join(dir, "chunks")
	for _, c := range []string{"0/2", "1/2"} {
		if r := runCLI(t, "", "volume", vol, "--binary", "--chunk", c, "-o", chunks, "-q"); r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	for i, c := range []struct {
		name string
		args func(in, out string) []string
		pipe string // the input's name, "" for none
	}{
		{"graph", func(in, out string) []string {
			return []string{"graph", in, "--format", "edgelist", "--labels", out + "/l.txt", "--forest", out + "/f.npy"}
		}, "g.txt"},
		{"convert", func(in, out string) []string { return []string{"convert", in, out + "/g.egr"} }, "g.txt"},
		{"merge", func(in, out string) []string { return []string{"merge", in, chunks, "-o", out + "/m.nii.gz"} }, "v.npy"},
		{"gen", func(_, out string) []string {
			return []string{"gen", "volume", "--size", "640,640,640", "--kind", "blobs", "-o", out + "/g.nii.gz"}
		}, ""},
	} {
		sig := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM}[i%2]
		t.Run(c.name+"/"+sig.String(), func(t *testing.T) {
			in, out := t.TempDir(), t.TempDir()
			ready := filepath.Join(in, "ready")
			t.Setenv("CCLABEL_TEST_READY", ready)
			var fifo string
			if c.pipe != "" {
				fifo = filepath.Join(in, c.pipe)
				if err := syscall.Mkfifo(fifo, 0o644); err != nil {
					t.Skipf("no named pipes: %v", err)
				}
			}
			child := startChild(t, false, c.args(fifo, out)...)
			waitFor(t, "the child to start", func() bool { _, err := os.Stat(ready); return err == nil })
			if fifo != "" {
				w := pipeWriter(t, fifo)
				defer w.Close()        // after the signal: the input never ends before it
				w.WriteString("0 1\n") // part of the input
			} else {
				time.Sleep(300 * time.Millisecond)
			}
			child.cmd.Process.Signal(sig)
			if code := child.wait(t); code != 128+int(sig) {
				t.Fatalf("exit %d, want %d: %s", code, 128+int(sig), child.stderr.String())
			}
			if !strings.Contains(child.stderr.String(), "cclabel: interrupted ("+signalName(sig)+")") {
				t.Errorf("stderr %q", child.stderr.String())
			}
			if entries, _ := os.ReadDir(out); len(entries) != 0 {
				t.Errorf("left %v", entries)
			}
		})
	}
}
