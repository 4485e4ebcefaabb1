package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// claimSuffix ends the name of a claim file: "." + the destination's base
// name + claimSuffix.
const claimSuffix = ".claim"

// Owner is the process that holds a claim.
type Owner struct {
	PID  int    // 0 when the claim cannot be read
	Host string // the host's tag (see TempPrefix)
	Name string // the host's name, for messages
}

// ClaimedError is the error of [Claim] when another live process holds
// the claim.
type ClaimedError struct {
	Path  string
	Owner Owner
}

func (e *ClaimedError) Error() string {
	if e.Owner.PID == 0 {
		return e.Path + ": claimed by another process"
	}
	return fmt.Sprintf("%s: claimed by process %d on %s", e.Path, e.Owner.PID, e.Owner.Name)
}

// ClaimPath returns the path of the claim file of path.
func ClaimPath(path string) string {
	dir, base := filepath.Split(path)
	return filepath.Join(dir, "."+base+claimSuffix)
}

// Claim claims path for this process before it is written.
//
// Concurrent runs writing the same folder then write each output once: it
// creates the claim file next to path ([ClaimPath]), exclusively, holding
// the process id and host, and keeps it locked (flock) until release, which
// removes it; so does [Interrupt]. A claim file appears whole and locked: it
// is written under a temporary name, locked, then linked to its name, which
// fails when the name exists.
//
// A claim whose process is gone is taken over: its lock is free (the
// kernel drops a process's locks when it ends), or, where the file system
// takes no locks, its process no longer exists on this host. A claim held
// by a live process fails with a [*ClaimedError].
func Claim(path string) (release func(), err error) {
	claim := ClaimPath(path)
	for try := 0; ; try++ {
		err := newClaim(claim)
		if err == nil {
			return func() { unclaim(claim) }, nil
		}
		if errors.Is(err, ErrInterrupted) {
			return nil, err
		}
		if !errors.Is(err, fs.ErrExist) || try == 3 {
			return nil, fmt.Errorf("claim %s: %w", path, err)
		}
		owner, taken, err := takeOver(claim)
		switch {
		case errors.Is(err, fs.ErrNotExist): // released meanwhile
		case err != nil:
			return nil, fmt.Errorf("claim %s: %w", path, err)
		case !taken:
			return nil, &ClaimedError{Path: path, Owner: owner}
		}
	}
}

// newClaim makes the claim file, locked and registered; fs.ErrExist when
// it exists.
func newClaim(claim string) error {
	registry.Lock()
	defer registry.Unlock()
	if registry.interrupted {
		return ErrInterrupted
	}
	dir, base := filepath.Split(claim)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, TempPrefix(base[1:])+"*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := fmt.Fprintf(tmp, "%d %s %s\n", os.Getpid(), hostTag(), hostName()); err != nil {
		tmp.Close()
		return err
	}
	tryLock(tmp) // where locks are not taken, staleness is asked by process id
	if err := os.Link(tmp.Name(), claim); err != nil {
		tmp.Close()
		return err
	}
	registry.claims[claim] = tmp
	return nil
}

// takeOver removes the claim file when its process is gone, and reports
// whether it did; otherwise it returns the claim's owner.
func takeOver(claim string) (Owner, bool, error) {
	f, err := os.Open(claim)
	if err != nil {
		return Owner{}, false, err
	}
	defer f.Close()
	owner, _ := readClaim(claim)
	if !staleFile(f, claim, owner.PID, owner.Host) {
		return owner, false, nil
	}
	return owner, removeIfSame(claim, f), nil
}

// staleFile reports whether the file open as f at path, written by
// process pid of the host tagged host, is left by a process that is gone:
// its lock is free (taking it, so that only this process may remove the
// file) and, where the file system takes no locks, that process no longer
// exists on this host. A file of this process's own id that it does not
// hold is left by an earlier process of that id (a restarted container).
func staleFile(f *os.File, path string, pid int, host string) bool {
	locked, err := tryLock(f)
	if err == nil {
		return locked
	}
	if host != hostTag() || pid <= 0 {
		return false
	}
	if pid == os.Getpid() {
		return !heldHere(path)
	}
	return !alive(pid)
}

// removeIfSame removes path when it still names the file open as f.
func removeIfSame(path string, f *os.File) bool {
	a, err1 := f.Stat()
	b, err2 := os.Lstat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b) && os.Remove(path) == nil
}

// heldHere reports whether path is a temporary file or a claim of this
// process.
func heldHere(path string) bool {
	path = filepath.Clean(path)
	registry.Lock()
	defer registry.Unlock()
	for _, names := range []func(yield func(string) bool){maps.Keys(registry.temps), maps.Keys(registry.claims)} {
		for name := range names {
			if filepath.Clean(name) == path {
				return true
			}
		}
	}
	return false
}

// unclaim removes a claim file of this process.
func unclaim(claim string) {
	registry.Lock()
	defer registry.Unlock()
	if f := registry.claims[claim]; f != nil {
		unclaimLocked(claim, f)
	}
}

// unclaimLocked removes a claim of this process; the registry's lock must
// be held.
func unclaimLocked(claim string, f *os.File) {
	removeIfSame(claim, f)
	f.Close()
	delete(registry.claims, claim)
}

// readClaim reads the owner in a claim file.
func readClaim(path string) (Owner, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Owner{}, err
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return Owner{}, fmt.Errorf("claim %s: malformed", path)
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil || pid <= 0 {
		return Owner{}, fmt.Errorf("claim %s: malformed", path)
	}
	o := Owner{PID: pid, Host: f[1], Name: f[1]}
	if len(f) > 2 {
		o.Name = f[2]
	}
	return o, nil
}

// hostName is the host's name, or "this-host".
func hostName() string {
	if name, err := os.Hostname(); err == nil && name != "" && !strings.ContainsAny(name, " \n") {
		return name
	}
	return "this-host"
}
