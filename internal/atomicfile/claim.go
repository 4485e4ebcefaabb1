package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
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
	PID  int
	Host string // the host's tag (see TempPrefix)
	Name string // the host's name, for messages
}

// ClaimedError is the error of [Claim] when a live process, or a process
// of another host, holds the claim.
type ClaimedError struct {
	Path  string
	Owner Owner
}

func (e *ClaimedError) Error() string {
	return fmt.Sprintf("%s: claimed by process %d on %s", e.Path, e.Owner.PID, e.Owner.Name)
}

// ClaimPath returns the path of the claim file of path.
func ClaimPath(path string) string {
	dir, base := filepath.Split(path)
	return filepath.Join(dir, "."+base+claimSuffix)
}

// Claim claims path for this process before it is written, so that
// concurrent runs writing the same folder write each output once: it
// creates the claim file next to path, exclusively (O_EXCL), holding the
// process id and host. A claim whose process is gone (on this host) is
// taken over; one held by a live process, or by a process of another
// host, fails with a [*ClaimedError]. release removes the claim; so does
// [Interrupt].
func Claim(path string) (release func(), err error) {
	claim := ClaimPath(path)
	me := fmt.Sprintf("%d %s %s\n", os.Getpid(), hostTag(), hostName())
	for try := 0; ; try++ {
		registry.Lock()
		if registry.interrupted {
			registry.Unlock()
			return nil, ErrInterrupted
		}
		f, err := os.OpenFile(claim, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			registry.claims[claim] = true
			registry.Unlock()
			_, werr := f.WriteString(me)
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				unclaim(claim)
				return nil, fmt.Errorf("claim %s: %w", path, werr)
			}
			return func() { unclaim(claim) }, nil
		}
		registry.Unlock()
		if !errors.Is(err, fs.ErrExist) || try == 3 {
			return nil, fmt.Errorf("claim %s: %w", path, err)
		}
		owner, rerr := readClaim(claim)
		if errors.Is(rerr, fs.ErrNotExist) {
			continue // released meanwhile
		}
		if rerr != nil {
			// A claim being written (empty for an instant), or a foreign file.
			return nil, &ClaimedError{Path: path, Owner: owner}
		}
		if owner.Host != hostTag() || alive(owner.PID) {
			return nil, &ClaimedError{Path: path, Owner: owner}
		}
		takeOver(claim, owner)
	}
}

// takeOver removes the stale claim of owner and reports whether it did.
// It first renames the claim aside, which only one of several processes
// taking it over can do, and puts it back when the file moved was
// another's fresh claim.
func takeOver(claim string, owner Owner) bool {
	aside := claim + "." + strconv.Itoa(os.Getpid()) + ".stale"
	if os.Rename(claim, aside) != nil {
		return false
	}
	defer os.Remove(aside)
	if got, err := readClaim(aside); err == nil && got != owner {
		os.Link(aside, claim) // fails if yet another claim is there: then that one holds
		return false
	}
	return true
}

// unclaim removes a claim file of this process.
func unclaim(claim string) {
	registry.Lock()
	defer registry.Unlock()
	if registry.claims[claim] {
		delete(registry.claims, claim)
		os.Remove(claim)
	}
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

// hostName is the host's name, or "this host".
func hostName() string {
	if name, err := os.Hostname(); err == nil && name != "" && !strings.ContainsAny(name, " \n") {
		return name
	}
	return "this-host"
}
