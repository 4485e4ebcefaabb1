package main

import (
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// gpuFiles returns the process's open descriptors whose targets match: the
// GPU driver's device files for isGPUFile.
func gpuFiles(match func(target string) bool) []int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return nil
	}
	var fds []int
	for _, e := range entries {
		fd, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if target, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && match(target) {
			fds = append(fds, fd)
		}
	}
	return fds
}

// isGPUFile reports whether target names an NVIDIA device file.
func isGPUFile(target string) bool { return strings.HasPrefix(target, "/dev/nvidia") }

// exitPipe is the write end of the pipe whose closing, by the process's
// exit, tells the holder that cclabel has gone; kept here so that no
// finalizer closes it sooner.
var exitPipe *os.File

// handOffGPU starts a holder of the GPU's device files that outlives the
// process and keeps them open for d after it has exited; it does nothing
// where none is open.
func handOffGPU(d time.Duration) error {
	_, w, err := startHolder("/proc/self/exe", gpuFiles(isGPUFile), d)
	exitPipe = w
	return err
}

// startHolder starts exe as the holder of fds: in a session of its own, its
// standard files /dev/null, the pipe's read end as descriptor 3 and fds
// from 4 on. It returns the holder's pid and the pipe's write end (0 and
// nil when fds is empty): the holder exits d after that is closed.
func startHolder(exe string, fds []int, d time.Duration) (int, *os.File, error) {
	if len(fds) == 0 {
		return 0, nil, nil
	}
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
	for _, fd := range fds {
		files = append(files, uintptr(fd))
	}
	pid, err := syscall.ForkExec(exe, []string{"cclabel (gpu holder)"}, &syscall.ProcAttr{
		Dir:   "/",
		Env:   []string{holderEnv + "=" + d.String()},
		Files: files,
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err != nil {
		w.Close()
		return 0, nil, err
	}
	return pid, w, nil
}

// holdGPU is the holder's whole run: it waits until the pipe on descriptor
// 3 is closed (cclabel has exited), then for the linger duration, and
// exits, closing the files it was given.
func holdGPU(linger string) {
	_, _ = io.Copy(io.Discard, os.NewFile(3, "cclabel"))
	if d, err := time.ParseDuration(linger); err == nil {
		time.Sleep(min(max(d, 0), maxLinger))
	}
	os.Exit(0)
}
