package cuda

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"slices"
	"strings"
	"testing"
)

// TestFatbinMatchesSources fails when a kernel source changed without
// rebuilding the committed fatbin (run cuda/build.sh on a machine with
// nvcc).
func TestFatbinMatchesSources(t *testing.T) {
	got, err := sourcesSHA256()
	if err != nil {
		t.Fatal(err)
	}
	want, err := recordedSHA256()
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("kernel sources hash %s, the fatbin was built from %s: run cuda/build.sh", got, want)
	}
	b, err := fatbin()
	if err != nil || len(b) < 1024 {
		t.Fatalf("fatbin of %d bytes: %v", len(b), err)
	}
}

// sourcesSHA256 hashes the kernel sources as build.sh does: the files of
// kernels/ concatenated in name order.
func sourcesSHA256() (string, error) {
	names, err := fs.Glob(kernelFiles, "kernels/*.cu")
	if err != nil {
		return "", err
	}
	slices.Sort(names)
	h := sha256.New()
	for _, n := range names {
		b, err := kernelFiles.ReadFile(n)
		if err != nil {
			return "", err
		}
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// recordedSHA256 is the source hash recorded when the fatbin was built.
func recordedSHA256() (string, error) {
	b, err := kernelFiles.ReadFile("kernels.sha256")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}
