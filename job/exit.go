package job

import (
	"os"
	"time"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/cuda"
)

// SetDriverDefaults sets CUDA_DEVICE_MAX_CONNECTIONS to 1 unless the user
// has set it, before the driver is loaded: cclabel issues all its work on
// one stream, which one hardware queue serves, and a context's queues
// cost time to make and close. A command line run calls it; a library
// leaves its host process's setting alone.
func SetDriverDefaults() {
	if _, ok := os.LookupEnv("CUDA_DEVICE_MAX_CONNECTIONS"); !ok {
		_ = os.Setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1")
	}
}

// HoldGPU returns at once unless the process was started as a holder of GPU
// files ([ExitGPU]), which holds them and exits; main calls it first.
func HoldGPU() { cuda.Hold() }

// closeWait is how long ExitGPU waits for the labelers' GPU contexts to
// close (released in the background by then, or being released).
const closeWait = 30 * time.Millisecond

// ExitGPU closes labelers, waiting at most closeWait, and hands the GPU
// driver's device files to a holder process ([cuda.HandOff]), waiting at
// most a second for its start (a start that hangs must not keep the
// process), so that the driver's teardown does not delay the exit; the
// holder lingers (CCLABEL_GPU_LINGER) only when the labelers closed in
// that time. A program calls it just before it exits.
func ExitGPU(labelers ...*cclabel.Labeler) {
	closed := within(closeWait, func() {
		for _, l := range labelers {
			_ = l.Close() // an error closing the GPU does not change the outputs
		}
	})
	within(time.Second, func() { _ = cuda.HandOff(closed) })
}

// within runs f on a goroutine of its own and reports whether it returned
// within d; past d, f is left to finish.
func within(d time.Duration, f func()) bool {
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}
