package cuda

import (
	"embed"
	"fmt"
	"os"
)

// kernelFiles holds the kernel sources (whose hash the tests check), the
// fatbin nvcc built from them (cuda/build.sh) and the sha256 of the
// sources it was built from.
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
