package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// deadPID returns the id of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run a child process: %v", err)
	}
	pid := cmd.Process.Pid
	if alive(pid) {
		t.Skipf("process %d still exists", pid)
	}
	return pid
}

func TestTempNames(t *testing.T) {
	name := TempPrefix("out.nii.gz") + "12345"
	pid, host, ok := parseTemp(name)
	if !ok || pid != os.Getpid() || host != hostTag() {
		t.Fatalf("parseTemp(%q) = %d, %q, %v", name, pid, host, ok)
	}
	for _, bad := range []string{"out.nii.gz", ".out.tmp-12", ".out.tmp-12-zz-3", ".out.tmp-x-0123abcd-3",
		".out.tmp-12-0123abcd-", ".tmp-12-0123abcd-5", "a.tmp-12-0123abcd-5"} {
		if IsTemp(bad) {
			t.Errorf("IsTemp(%q)", bad)
		}
	}
}

func TestSweep(t *testing.T) {
	dead := deadPID(t)
	dir := t.TempDir()
	mk := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	deadTemp := mk(fmt.Sprintf(".a.png.tmp-%d-%s-99", dead, hostTag()), "stale")
	// A temporary file of this process's id that it does not hold is an
	// earlier process's (a restarted container's pid 1, say).
	earlier := mk(fmt.Sprintf(".b.png.tmp-%d-%s-99", os.Getpid(), hostTag()), "earlier")
	live := mk(fmt.Sprintf(".c.png.tmp-%d-%s-99", dead, hostTag()), "locked by its writer")
	hold(t, live)
	mk(fmt.Sprintf(".d.png.tmp-%d-%s-99", dead, "00000000"), "another host") // hostTag of "" hashes otherwise
	mk(".e.png.tmp-12345", "an old name without pid")
	mk("f.png", "an output")
	deadClaim := mk(".g.png"+claimSuffix, fmt.Sprintf("%d %s h\n", dead, hostTag()))
	liveClaim := mk(".h.png"+claimSuffix, fmt.Sprintf("%d %s h\n", dead, hostTag()))
	hold(t, liveClaim)
	if _, err := Claim(filepath.Join(dir, "i.png")); err != nil { // this process's
		t.Fatal(err)
	}
	if hostTag() == "00000000" {
		t.Skip("the host's tag is the other host's")
	}
	got := Sweep(dir)
	slices.Sort(got)
	if want := []string{deadTemp, earlier, deadClaim}; !slices.Equal(got, want) {
		t.Errorf("Sweep removed %v, want %v", got, want)
	}
	if n := len(names(t, dir)); n != 6 {
		t.Errorf("%d files left, want 6: %v", n, names(t, dir))
	}
}

// hold locks path as a live process would, until the test ends.
func hold(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if ok, err := tryLock(f); !ok {
		t.Skipf("no file locks here: %v", err)
	}
}

func TestClaim(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "a.nii.gz")
	release, err := Claim(out)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(ClaimPath(out))
	if want := strconv.Itoa(os.Getpid()) + " " + hostTag(); string(data[:len(want)]) != want {
		t.Errorf("claim holds %q", data)
	}
	// Held by a live process (this one): refused.
	var held *ClaimedError
	if _, err := Claim(out); !errors.As(err, &held) || held.Owner.PID != os.Getpid() {
		t.Fatalf("second claim: %v", err)
	}
	release()
	if _, err := os.Stat(ClaimPath(out)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("claim left after release: %v", err)
	}
	// A claim whose lock is free is taken over: its process is gone,
	// whatever its id (reused, or of another pid namespace) or host.
	for _, owner := range []string{fmt.Sprintf("%d %s h", deadPID(t), hostTag()), "1 ffffffff elsewhere", "", "garbage"} {
		os.WriteFile(ClaimPath(out), []byte(owner+"\n"), 0o644)
		release, err = Claim(out)
		if err != nil {
			t.Fatalf("stale claim %q not taken over: %v", owner, err)
		}
		release()
	}
	// One whose lock is held is not, even when it cannot be read.
	os.WriteFile(ClaimPath(out), []byte("1 ffffffff elsewhere\n"), 0o644)
	hold(t, ClaimPath(out))
	if _, err := Claim(out); !errors.As(err, &held) || held.Owner.Name != "elsewhere" {
		t.Errorf("a held claim of another host: %v", err)
	}
	if got := names(t, dir); !slices.Equal(got, []string{".a.nii.gz" + claimSuffix}) {
		t.Errorf("folder holds %v", got)
	}
}

// TestSweepSparesWritesInProgress: sweeping a folder while this process
// writes there, from several goroutines, removes none of its files.
func TestSweepSparesWritesInProgress(t *testing.T) {
	dir := t.TempDir()
	stop := make(chan struct{})
	swept := make(chan []string)
	go func() {
		var all []string
		for {
			select {
			case <-stop:
				swept <- all
				return
			default:
				all = append(all, Sweep(dir)...)
			}
		}
	}()
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			for i := range 50 {
				if err := write(filepath.Join(dir, fmt.Sprintf("%d-%d", g, i)), "x"); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	close(stop)
	if got := <-swept; len(got) != 0 {
		t.Errorf("Sweep removed %d files of writes in progress: %v", len(got), got[:min(3, len(got))])
	}
}
