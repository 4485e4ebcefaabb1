// Package atomicfile writes files so that readers never see a partial one.
//
// Data goes to a temporary file in the destination's folder, renamed over
// the destination only when complete ([WriteFile]); every temporary file
// of the process can be removed at once when it is interrupted
// ([Interrupt]), and no output may replace an input ([CheckDistinct]).
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// ErrInterrupted is returned by writes that start, or try to finish,
// after [Interrupt].
var ErrInterrupted = errors.New("interrupted")

// registry is the process's temporary files, open groups and claims.
var registry = struct {
	sync.Mutex
	temps       map[string]*tempFile // by name
	groups      map[string]*Group    // destination key -> the group holding it
	claims      map[string]*os.File  // claim file -> the open file holding its lock
	interrupted bool
}{temps: map[string]*tempFile{}, groups: map[string]*Group{}, claims: map[string]*os.File{}}

// tempFile is a temporary file of the process: its destination, and an
// open file holding its lock, which tells other processes it is in use
// ([Sweep]).
type tempFile struct {
	dest string
	lock *os.File
}

// drop closes t's lock and, with remove, removes the file name; the
// registry's lock must be held.
func (t *tempFile) drop(name string, remove bool) {
	if remove {
		os.Remove(name)
	}
	if t.lock != nil {
		t.lock.Close()
	}
	delete(registry.temps, name)
}

// WriteFile creates path through write, which receives a buffered writer.
// The data goes to a temporary file next to path, whose name carries the
// process id ([TempPrefix]); it is renamed to path when complete, or, when
// path belongs to an open [Group], when the group commits. When write or
// any file operation fails, the temporary file is removed, an existing
// file at path is left as it was, and the error is returned.
func WriteFile(path string, write func(w io.Writer) error) (err error) {
	tmp, err := createTemp(path)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			forget(tmp.Name(), true)
		}
	}()
	bw := bufio.NewWriterSize(faultWriter(tmp), 1<<20)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return finish(tmp.Name(), path)
}

// createTemp creates a registered temporary file for path, first removing
// the stale temporary files of dead processes in its folder ([Sweep]).
func createTemp(path string) (*os.File, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	sweepOnce(dir)
	registry.Lock()
	defer registry.Unlock()
	if registry.interrupted {
		return nil, ErrInterrupted
	}
	// Created under the lock, so that Interrupt cannot miss it.
	tmp, err := os.CreateTemp(dir, TempPrefix(base)+"*")
	if err != nil {
		return nil, err
	}
	t := &tempFile{dest: path}
	if lock, err := os.Open(tmp.Name()); err == nil {
		tryLock(lock) // where locks are not taken, Sweep asks by process id
		t.lock = lock
	}
	registry.temps[tmp.Name()] = t
	return tmp, nil
}

// finish renames a complete temporary file to path, or hands it to the
// open group that holds path.
func finish(tmp, path string) error {
	registry.Lock()
	defer registry.Unlock()
	if registry.interrupted {
		return fmt.Errorf("write %s: %w", path, ErrInterrupted)
	}
	t := registry.temps[tmp]
	if t == nil {
		return fmt.Errorf("write %s: its temporary file is gone", path)
	}
	if g := registry.groups[key(path)]; g != nil {
		if _, dup := g.done[key(path)]; dup {
			t.drop(tmp, true)
			return fmt.Errorf("write %s: written twice in one group", path)
		}
		g.done[key(path)] = tmp
		return nil
	}
	old, err := replace(tmp, path)
	t.drop(tmp, err != nil || old)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// forget unregisters a temporary file, removing it when remove is set.
func forget(tmp string, remove bool) {
	registry.Lock()
	defer registry.Unlock()
	if t := registry.temps[tmp]; t != nil {
		t.drop(tmp, remove)
	} else if remove {
		os.Remove(tmp)
	}
}

// Interrupt removes every temporary file of the process and stops later
// writes.
//
// Every later write and commit fails with [ErrInterrupted]. Interrupt
// returns the destinations that will not be written: those of open groups
// and of writes in progress, sorted and without repeats. A commit in
// progress completes first, so a group is written whole or not at all.
func Interrupt() []string {
	registry.Lock()
	defer registry.Unlock()
	registry.interrupted = true
	seen := map[string]bool{}
	var lost []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			lost = append(lost, p)
		}
	}
	for name, t := range registry.temps {
		add(t.dest)
		t.drop(name, true)
	}
	for _, g := range registry.groups {
		for _, p := range g.paths {
			add(p)
		}
	}
	clear(registry.groups)
	for claim, f := range registry.claims {
		unclaimLocked(claim, f)
	}
	slices.Sort(lost)
	return lost
}

// Interrupted reports whether [Interrupt] was called.
func Interrupted() bool {
	registry.Lock()
	defer registry.Unlock()
	return registry.interrupted
}

// key is the name under which a destination is registered: its cleaned
// absolute path.
func key(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}
