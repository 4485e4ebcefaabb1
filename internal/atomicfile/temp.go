package atomicfile

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// The name of a temporary file is "." + the destination's base name +
// ".tmp-" + the writing process's id + "-" + its host's tag + "-" + random
// digits: enough for a later run on the same host to tell whether the
// writer is gone ([Sweep]).

// hostTag is eight hex digits of a hash of the host name, the same for
// every process of a host.
var hostTag = sync.OnceValue(func() string {
	name, _ := os.Hostname()
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("%08x", h.Sum32())
})

// TempPrefix returns the name prefix of this process's temporary files for
// base.
//
// base is the destination's base name.
func TempPrefix(base string) string {
	return "." + base + ".tmp-" + strconv.Itoa(os.Getpid()) + "-" + hostTag() + "-"
}

// IsTemp reports whether name is that of a temporary file of this package.
//
// name is a base name; the file may be of any process.
func IsTemp(name string) bool {
	_, _, ok := parseTemp(name)
	return ok
}

// parseTemp returns the process id and host tag in a temporary file's
// name.
func parseTemp(name string) (pid int, host string, ok bool) {
	i := strings.LastIndex(name, ".tmp-")
	if !strings.HasPrefix(name, ".") || i < 2 {
		return 0, "", false
	}
	parts := strings.Split(name[i+len(".tmp-"):], "-")
	if len(parts) != 3 || len(parts[1]) != 8 || parts[2] == "" {
		return 0, "", false
	}
	pid, err := strconv.Atoi(parts[0])
	if err != nil || pid <= 0 {
		return 0, "", false
	}
	if _, err := strconv.ParseUint(parts[1], 16, 32); err != nil {
		return 0, "", false
	}
	if _, err := strconv.ParseUint(parts[2], 10, 64); err != nil {
		return 0, "", false
	}
	return pid, parts[1], true
}

// Sweep removes the files left in dir by processes that are gone.
//
// It removes temporary files and claims ([Claim]), and returns their paths.
// A temporary file is left when its lock (flock) is free and its process no
// longer exists on this host; a claim, which is locked from its start, when
// its lock is free. Files of live processes, temporary files of other hosts,
// and files it cannot name are left alone.
func Sweep(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasPrefix(name, ".") {
			continue
		}
		path := filepath.Join(dir, name)
		if strings.HasSuffix(name, claimSuffix) {
			if _, taken, _ := takeOver(path); taken {
				removed = append(removed, path)
			}
			continue
		}
		if pid, host, ok := parseTemp(name); ok && host == hostTag() && sweepTemp(path, pid) {
			removed = append(removed, path)
		}
	}
	return removed
}

// sweepTemp removes the temporary file at path of process pid of this
// host when that process is gone, and reports whether it did.
func sweepTemp(path string, pid int) bool {
	// A live process's file, even before it has taken its lock.
	if pid == os.Getpid() && heldHere(path) || pid != os.Getpid() && alive(pid) {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return staleFile(f, path, pid, hostTag()) && removeIfSame(path, f)
}

// swept holds the folders swept by this process: each is swept before
// its first temporary file is made.
var swept sync.Map

// sweepOnce sweeps dir the first time the process writes there.
func sweepOnce(dir string) {
	k := key(dir)
	if _, done := swept.LoadOrStore(k, true); !done {
		Sweep(dir)
	}
}
