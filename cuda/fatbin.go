package cuda

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// kernelFiles holds the kernel sources, the fatbin nvcc built from them
// (cuda/build.sh) and the sha256 of the sources it was built from.
//
//go:embed kernels/*.cu kernels.fatbin kernels.sha256
var kernelFiles embed.FS

// fatbin returns the embedded kernel image.
func fatbin() ([]byte, error) {
	b, err := kernelFiles.ReadFile("kernels.fatbin")
	if err != nil {
		return nil, fmt.Errorf("cuda: embedded fatbin: %w", err)
	}
	return b, nil
}

// kernelImage returns the module image to load: the file named by
// $CCLABEL_KERNELS when set (for kernel development: a fatbin or cubin
// built from edited sources, without rebuilding Go), else the embedded
// fatbin.
func kernelImage() ([]byte, error) {
	if path := os.Getenv("CCLABEL_KERNELS"); path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("cuda: CCLABEL_KERNELS: %w", err)
		}
		return b, nil
	}
	return fatbin()
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
