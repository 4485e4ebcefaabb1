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
	mk(fmt.Sprintf(".b.png.tmp-%d-%s-99", os.Getpid(), hostTag()), "live")
	mk(fmt.Sprintf(".c.png.tmp-%d-%s-99", dead, "00000000"), "another host") // hostTag of "" hashes otherwise
	mk(".d.png.tmp-12345", "an old name without pid")
	mk("e.png", "an output")
	deadClaim := mk(".f.png"+claimSuffix, fmt.Sprintf("%d %s h\n", dead, hostTag()))
	mk(".g.png"+claimSuffix, fmt.Sprintf("%d %s h\n", os.Getpid(), hostTag()))
	if hostTag() == "00000000" {
		t.Skip("the host's tag is the other host's")
	}
	got := Sweep(dir)
	slices.Sort(got)
	if want := []string{deadTemp, deadClaim}; !slices.Equal(got, want) {
		t.Errorf("Sweep removed %v, want %v", got, want)
	}
	if n := len(names(t, dir)); n != 5 {
		t.Errorf("%d files left, want 5", n)
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
	// A stale claim is taken over.
	os.WriteFile(ClaimPath(out), fmt.Appendf(nil, "%d %s h\n", deadPID(t), hostTag()), 0o644)
	release, err = Claim(out)
	if err != nil {
		t.Fatalf("stale claim not taken over: %v", err)
	}
	release()
	// Another host's claim is left alone.
	os.WriteFile(ClaimPath(out), []byte("1 ffffffff elsewhere\n"), 0o644)
	if hostTag() != "ffffffff" {
		if _, err := Claim(out); !errors.As(err, &held) || held.Owner.Name != "elsewhere" {
			t.Errorf("another host's claim: %v", err)
		}
	}
	if got := names(t, dir); !slices.Equal(got, []string{".a.nii.gz" + claimSuffix}) {
		t.Errorf("folder holds %v", got)
	}
}
