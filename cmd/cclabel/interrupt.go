package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/cclabel/cclabel/job"
)

// interrupts is how the process answers SIGINT and SIGTERM: a command may
// take the first signal itself (batch finishes the inputs in flight);
// otherwise, and at the next signal, every temporary file is removed, the
// outputs not written are named, and the process exits with 128 plus the
// signal's number.
var interrupts struct {
	sync.Mutex
	soft func(os.Signal) // takes the next signal, once; nil: none
}

// catchSignals starts answering SIGINT and SIGTERM for a run writing its
// messages to stderr; the returned function stops.
func catchSignals(stderr io.Writer) (stop func()) {
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case sig := <-signals:
				if takeSoftly(sig) {
					continue
				}
				os.Exit(interrupt(sig, stderr))
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(signals)
		close(done)
	}
}

// onFirstSignal lets handle take the next SIGINT or SIGTERM instead of
// the process ending at once; later ones end it. The returned function
// withdraws handle.
func onFirstSignal(handle func(os.Signal)) (withdraw func()) {
	interrupts.Lock()
	interrupts.soft = handle
	interrupts.Unlock()
	return func() {
		interrupts.Lock()
		interrupts.soft = nil
		interrupts.Unlock()
	}
}

// takeSoftly passes sig to the soft handler, if any, and withdraws it.
func takeSoftly(sig os.Signal) bool {
	interrupts.Lock()
	handle := interrupts.soft
	interrupts.soft = nil
	interrupts.Unlock()
	if handle == nil {
		return false
	}
	go handle(sig) // the next signal is taken even if handle blocks
	return true
}

// interrupt removes the run's temporary files, says which outputs were
// not written, and returns the exit status for sig.
func interrupt(sig os.Signal, stderr io.Writer) int {
	lost := job.Interrupt()
	if len(lost) == 0 {
		fmt.Fprintf(stderr, "cclabel: interrupted (%s)\n", signalName(sig))
	} else {
		fmt.Fprintf(stderr, "cclabel: interrupted (%s): %s not written\n", signalName(sig), strings.Join(lost, ", "))
	}
	return exitStatus(sig)
}

// exitStatus is 128 plus the signal's number, as shells report it.
func exitStatus(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

// signalName is SIGINT or SIGTERM.
func signalName(sig os.Signal) string {
	if sig == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}

// interruptedError is the error of a command that a signal stopped after
// it finished what was in flight: the process exits with the signal's
// status.
type interruptedError struct {
	Signal os.Signal
	Err    error
}

func (e interruptedError) Error() string { return e.Err.Error() }
func (e interruptedError) Unwrap() error { return e.Err }
