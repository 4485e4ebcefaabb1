package driver

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// openFile is an open descriptor of the process and what it names.
type openFile struct {
	fd     int
	target string
}

// openFiles returns the process's open descriptors in increasing order.
func openFiles() []openFile {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return nil
	}
	var open []openFile
	for _, e := range entries {
		fd, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if target, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil {
			open = append(open, openFile{fd, target})
		}
	}
	slices.SortFunc(open, func(a, b openFile) int { return a.fd - b.fd })
	return open
}

// gpuFiles returns duplicates of the descriptors of open whose targets
// match, in open's order: the GPU driver's device files for isGPUFile. Each
// duplicate is close-on-exec, the caller's to close, and checked after it
// is made: a descriptor that another thread closed after open was listed,
// and whose number then went to another file, is left out. The holder is
// given these duplicates, whose numbers no other file can take while it
// starts.
func gpuFiles(open []openFile, match func(target string) bool) []int {
	var fds []int
	for _, f := range open {
		if !match(f.target) {
			continue
		}
		dup, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(f.fd), syscall.F_DUPFD_CLOEXEC, 3)
		if e != 0 {
			continue
		}
		if target, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(dup))); err != nil || !match(target) {
			syscall.Close(int(dup))
			continue
		}
		fds = append(fds, int(dup))
	}
	return fds
}

// isGPUFile reports whether target names an NVIDIA device file.
func isGPUFile(target string) bool { return strings.HasPrefix(target, "/dev/nvidia") }

// HolderEnv, set in the environment of a process, makes it the holder of
// an exited process's device files ([Hold]); its value is how long to
// linger. [HandOff] sets it for the holder it starts.
const HolderEnv = "CCLABEL_GPU_HOLDER"

// holderLockEnv names the lock file that lets one holder at a time linger.
const holderLockEnv = "CCLABEL_GPU_HOLDER_LOCK"

// LingerEnv names the variable that sets how long a holder keeps the files
// after the process has exited: a Go duration, defaultLinger when unset
// or not one, at most maxLinger; 0 closes them as soon as it has exited.
const LingerEnv = "CCLABEL_GPU_LINGER"

const (
	defaultLinger = 10 * time.Second
	maxLinger     = 10 * time.Minute
)

// linger returns the linger LingerEnv sets.
func linger() time.Duration {
	d, err := time.ParseDuration(os.Getenv(LingerEnv))
	if err != nil {
		return defaultLinger
	}
	return min(max(d, 0), maxLinger)
}

// exitPipe is the write end of the pipe whose closing, by the process's
// exit, tells the holder that cclabel has gone; kept here so that no
// finalizer closes it sooner.
var exitPipe *os.File

// HandOff starts a holder of the driver's device files that outlives the
// process and keeps them open until it has exited, and with lingers set
// for [LingerEnv] after: the driver tears down the process's GPU state
// when the last of them closes, which then happens in the holder, and
// while the holder lingers the next process to load the driver finds it
// initialised. A program calls it just before it exits, lingers set only
// when its contexts are closed (a holder must not keep their memory). The
// holder is the program's own executable, started with [HolderEnv] and run
// by [Hold]. HandOff does nothing where no device file is open.
func HandOff(lingers bool) error {
	d := time.Duration(0)
	if lingers {
		d = linger()
	}
	lock := filepath.Join(os.TempDir(), fmt.Sprintf("cclabel-gpu-holder-%d.lock", os.Getuid()))
	_, w, err := startHolder("/proc/self/exe", isGPUFile, d, lock)
	exitPipe = w
	return err
}

// holderName is the holder's argv[0], which [Hold] checks beside HolderEnv.
const holderName = "cclabel (gpu holder)"

// startHolder starts exe as the holder of the descriptors whose targets
// match: in a session of its own, its standard files /dev/null, the pipe's
// read end as descriptor 3 and duplicates of those from 4 on ([gpuFiles]),
// and no other descriptor of the process. It returns the holder's pid and
// the pipe's write end (0 and nil when none matches): the holder exits once
// that is closed, after d if it takes the lock file (lock) first.
//
// Another thread may close device files meanwhile (a context's release
// still under way): handing over such a number, reused by the pipe that
// reports the exec's failure, would leave that pipe open in the holder and
// the exec waiting for the holder, which waits for the process's exit.
func startHolder(exe string, match func(target string) bool, d time.Duration, lock string) (int, *os.File, error) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		return 0, nil, err
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		return 0, nil, err
	}
	defer r.Close()
	files := []uintptr{null.Fd(), null.Fd(), null.Fd(), r.Fd()}
	open := openFiles()
	held := gpuFiles(open, match)
	defer func() {
		for _, fd := range held {
			syscall.Close(fd)
		}
	}()
	if len(held) == 0 {
		w.Close()
		return 0, nil, nil
	}
	for _, fd := range held {
		files = append(files, uintptr(fd))
	}
	// Descriptors the process inherited without close-on-exec (a make
	// jobserver, a shell's 5>&1) must not stay open in the holder.
	for _, f := range open {
		if f.fd > 2 {
			syscall.CloseOnExec(f.fd)
		}
	}
	pid, err := syscall.ForkExec(exe, []string{holderName}, &syscall.ProcAttr{
		Dir:   "/",
		Env:   []string{HolderEnv + "=" + d.String(), holderLockEnv + "=" + lock},
		Files: files,
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err != nil {
		w.Close()
		return 0, nil, err
	}
	return pid, w, nil
}

// Hold returns at once unless the process is a holder: started by
// [HandOff] ([HolderEnv] set, its name, a pipe on descriptor 3). A holder
// waits until the pipe is closed (the process that started it has gone)
// and marks the time on the lock file. The first holder of the user to
// take the lock then lingers until its linger has passed since the last
// such mark, keeping the driver initialised for every process; the others
// exit at once, closing the files they were given. A program calls Hold
// first in main.
func Hold() {
	linger, ok := os.LookupEnv(HolderEnv)
	var st syscall.Stat_t
	if !ok || os.Args[0] != holderName || syscall.Fstat(3, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return // a stray HolderEnv: not started by HandOff
	}
	// The teardown in the holder's exit must not take a core from the
	// user's next command.
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, 0, 19)
	_, _ = io.Copy(io.Discard, os.NewFile(3, "holder"))
	d, err := time.ParseDuration(linger)
	if err != nil || d <= 0 {
		os.Exit(0)
	}
	d = min(d, maxLinger)
	lock := os.Getenv(holderLockEnv)
	now := time.Now()
	_ = os.Chtimes(lock, now, now) // the last exit, which the lingering holder waits d past
	if !lockFirst(lock) {
		os.Exit(0)
	}
	for last := now; time.Since(last) < d; {
		time.Sleep(d - time.Since(last))
		if st, err := os.Stat(lock); err == nil && st.ModTime().After(last) {
			last = st.ModTime()
		}
	}
	os.Exit(0)
}

// lockFirst takes the lock file at path, kept until the process exits (a
// raw descriptor, which no finalizer closes), and reports whether it did;
// a file that cannot be opened does not stop it.
func lockFirst(path string) bool {
	fd, err := syscall.Open(path, syscall.O_RDWR|syscall.O_CREAT|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return true
	}
	return syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
