package main

import (
	"os"
	"sync"
	"time"

	"github.com/cclabel/cclabel"
)

// The NVIDIA driver tears down a process's GPU state when the process
// closes its device files, which its exit does: a tenth of a second on
// the process's clock after the last output is written, for the GPU's
// last client. cclabel hands those files to a holder (its own binary,
// started with holderEnv) before it exits, so that the teardown runs
// after cclabel has returned; while the holder lingers, the next process
// to open the driver finds it initialised and skips most of cuInit.

// holderEnv, set in the environment of a cclabel process, makes it the
// holder of an exited cclabel's GPU device files ([holdGPU]); its value
// is how long to linger. The holder is started by handOffGPU only.
const holderEnv = "CCLABEL_GPU_HOLDER"

// lingerEnv names the variable that sets how long the GPU driver stays
// open after a command that used it has exited: a Go duration, at most
// maxLinger; 0 closes it as soon as cclabel has exited.
const lingerEnv = "CCLABEL_GPU_LINGER"

const (
	defaultLinger = 10 * time.Second
	maxLinger     = 10 * time.Minute
)

// connectionsEnv names the driver's variable for the hardware work queues
// of a context. cclabel issues all its work on one stream, so one queue
// serves it, and a context with one is created and destroyed in half the
// time of the driver's default of eight.
const connectionsEnv = "CUDA_DEVICE_MAX_CONNECTIONS"

// setDriverDefaults sets the driver variables cclabel wants (connectionsEnv)
// where the user has not set them, before the driver is loaded.
func setDriverDefaults() {
	if _, ok := os.LookupEnv(connectionsEnv); !ok {
		_ = os.Setenv(connectionsEnv, "1")
	}
}

// linger returns how long the holder keeps the driver open, from lingerEnv:
// defaultLinger when unset or not a duration, clamped to [0, maxLinger].
func linger() time.Duration {
	d, err := time.ParseDuration(os.Getenv(lingerEnv))
	if err != nil {
		return defaultLinger
	}
	return min(max(d, 0), maxLinger)
}

// exitLabelers are the labelers the run's commands opened, closed before
// the GPU's files are handed off.
var exitLabelers struct {
	sync.Mutex
	all []*cclabel.Labeler
}

// closeOnExit records l to be closed when the process exits.
func closeOnExit(l *cclabel.Labeler) {
	exitLabelers.Lock()
	exitLabelers.all = append(exitLabelers.all, l)
	exitLabelers.Unlock()
}

// closeWait is how long the exit waits for the labelers' GPU contexts to
// close (a release is under way in the background by then, or done).
// Past it the holder takes the files without lingering: it may be holding
// a context, and must not keep its memory.
const closeWait = 30 * time.Millisecond

// exitGPU closes the run's labelers and hands the GPU's device files to a
// holder; it returns at once where the process has none open.
func exitGPU() {
	exitLabelers.Lock()
	all := exitLabelers.all
	exitLabelers.Unlock()
	done := make(chan struct{})
	go func() {
		for _, l := range all {
			_ = l.Close() // an error closing the GPU does not change the outputs
		}
		close(done)
	}()
	d := linger()
	select {
	case <-done:
	case <-time.After(closeWait):
		d = 0
	}
	_ = handOffGPU(d)
}
