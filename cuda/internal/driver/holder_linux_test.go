package driver

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// holderExit waits for the holder pid to exit, up to limit, and returns
// how long that took; it fails the test past the limit.
func holderExit(t *testing.T, pid int, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for time.Since(start) < limit {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		if err != nil {
			t.Fatalf("wait4: %v", err)
		}
		if got == pid {
			if !ws.Exited() || ws.ExitStatus() != 0 {
				t.Fatalf("holder ended with %v", ws)
			}
			return time.Since(start)
		}
		time.Sleep(5 * time.Millisecond)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	t.Fatalf("holder still running after %v", limit)
	return 0
}

// fdTargets returns the targets of pid's open descriptors, by number.
func fdTargets(t *testing.T, pid int) map[int]string {
	t.Helper()
	dir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]string{}
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if target, lerr := os.Readlink(filepath.Join(dir, e.Name())); err == nil && lerr == nil {
			out[n] = target
		}
	}
	return out
}

// TestMain makes the test binary a holder when HolderEnv is set.
func TestMain(m *testing.M) {
	Hold()
	os.Exit(m.Run())
}

// TestHolderKeepsFilesUntilExitAndLinger hands two files to a holder (the
// test binary, as TestMain makes it) and checks that it holds them and
// nothing else of the test's, stays while the pipe is open, and exits no
// sooner than its linger after the pipe closes.
func TestHolderKeepsFilesUntilExitAndLinger(t *testing.T) {
	dir := t.TempDir()
	var held []*os.File
	for _, name := range []string{"a", "b"} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		held = append(held, f)
	}
	other, err := os.Create(filepath.Join(t.TempDir(), "other"))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	// other, inherited without close-on-exec (as a jobserver's pipe would
	// be), must not reach the holder either.
	if _, _, e := syscall.Syscall(syscall.SYS_FCNTL, other.Fd(), syscall.F_SETFD, 0); e != 0 {
		t.Fatal(e)
	}
	inDir := func(target string) bool { return filepath.Dir(target) == dir }
	checkGPUFiles(t, inDir, held)
	for _, c := range []struct {
		name   string
		linger time.Duration
	}{{"no linger", 0}, {"linger", 300 * time.Millisecond}} {
		t.Run(c.name, func(t *testing.T) {
			pid, w, err := startHolder(os.Args[0], inDir, c.linger, filepath.Join(t.TempDir(), "lock"))
			if err != nil {
				t.Fatal(err)
			}
			targets := fdTargets(t, pid)
			for i, f := range held {
				if got := targets[4+i]; got != f.Name() {
					t.Errorf("holder's descriptor %d is %q, want %q", 4+i, got, f.Name())
				}
			}
			if targets[1] != os.DevNull || targets[2] != os.DevNull {
				t.Errorf("holder's stdout, stderr = %q, %q; want %s", targets[1], targets[2], os.DevNull)
			}
			for _, target := range targets {
				if target == other.Name() {
					t.Errorf("holder holds %s, which it was not given", other.Name())
				}
			}
			time.Sleep(100 * time.Millisecond)
			if got, _ := syscall.Wait4(pid, nil, syscall.WNOHANG, nil); got == pid {
				t.Fatal("holder exited while the pipe was open")
			}
			w.Close()
			if took := holderExit(t, pid, 10*time.Second); took < c.linger {
				t.Errorf("holder exited %v after the pipe closed, want at least %v", took, c.linger)
			}
		})
	}
}

// checkGPUFiles checks that gpuFiles duplicates the files of held, and
// only those, and leaves out a listed descriptor that names another file
// by now (closed, and its number reused).
func checkGPUFiles(t *testing.T, match func(string) bool, held []*os.File) {
	t.Helper()
	fds := gpuFiles(openFiles(), match)
	defer func() {
		for _, fd := range fds {
			syscall.Close(fd)
		}
	}()
	if len(fds) != len(held) {
		t.Fatalf("gpuFiles gave %d descriptors, want %d", len(fds), len(held))
	}
	type file struct{ dev, ino uint64 }
	id := func(fd int) file {
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			t.Fatal(err)
		}
		return file{uint64(st.Dev), st.Ino}
	}
	want := map[file]int{}
	for _, f := range held {
		want[id(int(f.Fd()))] = int(f.Fd())
	}
	for _, fd := range fds {
		orig, ok := want[id(fd)]
		switch {
		case !ok:
			t.Errorf("gpuFiles' descriptor %d is none of the held files, or one twice", fd)
		case fd == orig:
			t.Errorf("gpuFiles gave descriptor %d itself, not a duplicate", fd)
		}
		delete(want, id(fd))
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	stale := []openFile{{int(r.Fd()), held[0].Name()}, {int(w.Fd()), held[1].Name()}}
	if fds := gpuFiles(stale, match); len(fds) != 0 {
		t.Errorf("gpuFiles took descriptors %v listed as device files that are pipes by now", fds)
	}
}

// TestOneHolderLingers starts two holders with one lock file: the first to
// lose its parent lingers, holding the lock; the second exits at once, and
// the first lingers on until its linger has passed since the second's
// parent went.
func TestOneHolderLingers(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "held"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lock := filepath.Join(t.TempDir(), "lock")
	const linger = 2 * time.Second
	held := func(target string) bool { return target == f.Name() }
	first, w1, err := startHolder(os.Args[0], held, linger, lock)
	if err != nil {
		t.Fatal(err)
	}
	second, w2, err := startHolder(os.Args[0], held, linger, lock)
	if err != nil {
		t.Fatal(err)
	}
	w1.Close()
	for start := time.Now(); ; time.Sleep(5 * time.Millisecond) { // until the first holds the lock
		fd, err := syscall.Open(lock, syscall.O_RDWR, 0)
		if err == nil {
			locked := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) != nil
			syscall.Close(fd)
			if locked {
				break
			}
		}
		if time.Since(start) > 5*time.Second {
			t.Fatal("the first holder did not take the lock")
		}
	}
	time.Sleep(linger / 2)
	closed := time.Now()
	w2.Close()
	if took := holderExit(t, second, 10*time.Second); took >= linger {
		t.Errorf("the second holder exited %v after its pipe closed, want at once (the first lingers)", took)
	}
	holderExit(t, first, 10*time.Second)
	if took := time.Since(closed); took < linger {
		t.Errorf("the first holder exited %v after the second's pipe closed, want at least %v", took, linger)
	}
}

// TestStrayHolderEnv: HolderEnv in the environment of a process not
// started by HandOff (this test, whose descriptor 3 is no pipe of a
// holder's) leaves it alone: Hold returns.
func TestStrayHolderEnv(t *testing.T) {
	t.Setenv(HolderEnv, "1s")
	Hold()
}

func TestHolderNothingToHold(t *testing.T) {
	pid, w, err := startHolder(os.Args[0], func(string) bool { return false }, time.Second, "")
	if pid != 0 || w != nil || err != nil {
		t.Fatalf("startHolder with no files = %d, %v, %v; want 0, nil, nil", pid, w, err)
	}
}

func TestLinger(t *testing.T) {
	for _, c := range []struct {
		env  string
		set  bool
		want time.Duration
	}{
		{"", false, defaultLinger},
		{"0", true, 0},
		{"2s", true, 2 * time.Second},
		{"250ms", true, 250 * time.Millisecond},
		{"-1s", true, 0},
		{"1h", true, maxLinger},
		{"soon", true, defaultLinger},
	} {
		t.Run(c.env, func(t *testing.T) {
			t.Setenv(LingerEnv, c.env)
			if !c.set {
				os.Unsetenv(LingerEnv)
			}
			if got := linger(); got != c.want {
				t.Errorf("linger() with %s=%q = %v, want %v", LingerEnv, c.env, got, c.want)
			}
		})
	}
}

// TestHolderStartsWhileFilesClose starts holders while another goroutine
// keeps opening and closing files they match, as a context's release does
// beside the exit: a start must never wait on the holder it started.
func TestHolderStartsWhileFilesClose(t *testing.T) {
	dir := t.TempDir()
	inDir := func(target string) bool { return filepath.Dir(target) == dir }
	keep, err := os.Create(filepath.Join(dir, "kept"))
	if err != nil {
		t.Fatal(err)
	}
	defer keep.Close()
	stop := make(chan struct{})
	churned := make(chan struct{})
	go func() {
		defer close(churned)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if f, err := os.Create(filepath.Join(dir, "churn")); err == nil {
				f.Close()
			}
		}
	}()
	defer func() { close(stop); <-churned }()
	for i := range 60 {
		started := make(chan error, 1)
		var pid int
		var w *os.File
		go func() {
			var err error
			pid, w, err = startHolder(os.Args[0], inDir, 0, filepath.Join(dir, "lock"))
			started <- err
		}()
		select {
		case err := <-started:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("start %d: no return after 10 s (the holder holds the exec's pipe)", i)
		}
		w.Close()
		holderExit(t, pid, 10*time.Second)
	}
}
