package imageio

import (
	"image"
	"runtime"
	"sync"

	"github.com/cclabel/cclabel/formats/internal/tiffio"
)

// decodePages returns a function that gives the decoded page k, for k =
// 0, 1, 2, ... in order: the pages (IFDs at ifds in data) are decoded by
// tiffio.DecodePage, a window of GOMAXPROCS pages at a time in parallel (each
// page on one goroutine), so that at most a window of decoded pages is
// held. The images and errors are those of golang.org/x/image/tiff.
func decodePages(data []byte, ifds []uint32) func(k int) (image.Image, error) {
	return decodePagesOf(len(ifds), func(k int) ([]byte, uint32, error) { return data, ifds[k], nil })
}

// decodePagesOf is decodePages over pages pages, page k's file and IFD
// offset given by page (a BigTIFF page converted to a classic file, say).
func decodePagesOf(pages int, page func(k int) ([]byte, uint32, error)) func(k int) (image.Image, error) {
	window := max(1, runtime.GOMAXPROCS(0))
	imgs := make([]image.Image, window)
	errs := make([]error, window)
	start := -window // first page of the decoded window
	return func(k int) (image.Image, error) {
		if k < start || k >= start+window {
			start = k - k%window
			var wg sync.WaitGroup
			for i := range window {
				imgs[i], errs[i] = nil, nil
				if p := start + i; p < pages {
					threads := 1
					if pages == 1 {
						threads = 0
					}
					wg.Go(func() {
						data, ifd, err := page(p)
						if err != nil {
							errs[i] = err
							return
						}
						imgs[i], errs[i] = tiffio.DecodePage(data, ifd, threads)
					})
				}
			}
			wg.Wait()
		}
		img, err := imgs[k-start], errs[k-start]
		imgs[k-start] = nil // the stack keeps its own copy
		return img, err
	}
}
