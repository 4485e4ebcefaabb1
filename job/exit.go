package job

import (
	"os"
	"time"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/cuda"
)

// SetDriverDefaults sets CUDA_DEVICE_MAX_CONNECTIONS to 1 unless the user
// has set it, before the driver is loaded: cclabel issues all its work on
// one stream, and a context with one hardware queue starts and closes in
// half the time of the driver's default of eight. A command line run
// calls it; a library leaves its host process's setting alone.
func SetDriverDefaults() {
	if _, ok := os.LookupEnv("CUDA_DEVICE_MAX_CONNECTIONS"); !ok {
		_ = os.Setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1")
	}
}

// HoldGPU returns at once unless the process was started as the holder of
// an exited command's GPU files ([ExitGPU]); a holder holds them and
// exits. A program calls it first in main.
func HoldGPU() { cuda.Hold() }

// closeWait is how long ExitGPU waits for the labelers' GPU contexts to
// close (released in the background by then, or being released).
const closeWait = 30 * time.Millisecond

// ExitGPU closes labelers and hands the GPU driver's device files to a
// holder process ([cuda.HandOff]), so that the driver's teardown does not
// delay the exit; the holder lingers (CCLABEL_GPU_LINGER) only when the
// contexts closed within closeWait. A program calls it just before it
// exits; where no GPU file is open it returns once the labelers are closed.
func ExitGPU(labelers ...*cclabel.Labeler) {
	done := make(chan struct{})
	go func() {
		for _, l := range labelers {
			_ = l.Close() // an error closing the GPU does not change the outputs
		}
		close(done)
	}()
	select {
	case <-done:
		_ = cuda.HandOff(true)
	case <-time.After(closeWait):
		_ = cuda.HandOff(false)
	}
}
