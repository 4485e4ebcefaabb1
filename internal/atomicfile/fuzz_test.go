package atomicfile

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// FuzzParseTemp checks that any name parses without panicking, and that a
// name it accepts carries a positive process id and an 8-digit host tag.
func FuzzParseTemp(f *testing.F) {
	f.Add(".a.png.tmp-123-0123abcd-456")
	f.Add(TempPrefix("out.nii.gz") + "1")
	f.Add(".x.tmp-0-0123abcd-1")
	f.Add(".x.tmp--1-0123abcd-1")
	f.Fuzz(func(t *testing.T, name string) {
		pid, host, ok := parseTemp(name)
		if !ok {
			return
		}
		if pid <= 0 || len(host) != 8 {
			t.Fatalf("%q: pid %d, host %q", name, pid, host)
		}
		if _, err := strconv.ParseUint(host, 16, 32); err != nil {
			t.Fatalf("%q: host %q is not hex", name, host)
		}
	})
}

// FuzzReadClaim checks that any claim file reads without panicking, and
// that a claim it accepts names a positive process id and a host.
func FuzzReadClaim(f *testing.F) {
	f.Add([]byte("123 0123abcd host\n"))
	f.Add([]byte(""))
	f.Add([]byte("-5 x"))
	f.Add([]byte("99999999999999999999 a b c"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), ".a.claim")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		owner, err := readClaim(path)
		if err == nil && (owner.PID <= 0 || owner.Host == "" || owner.Name == "") {
			t.Fatalf("%q: accepted as %+v", data, owner)
		}
	})
}
