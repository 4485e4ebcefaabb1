package parallel

import (
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// BenchmarkPageCost measures what first touching fresh memory costs this
// machine, the floor under a labeling run that fills a fresh label array:
// each way gets a 256 MiB buffer's pages, and the system time per 4 KiB
// page is reported beside the wall time.
//
//	go test ./internal/parallel -run '^$' -bench PageCost -benchtime 3x
func BenchmarkPageCost(b *testing.B) {
	const n = 256 << 20
	ways := []struct {
		name string
		run  func(n int) ([]byte, error)
	}{
		{"touch-1", func(n int) ([]byte, error) { return touchedMapping(n, 1, false) }},
		{"touch-2", func(n int) ([]byte, error) { return touchedMapping(n, 2, false) }},
		{"populate", populatedMapping},
		{"memfd", memfdMapping},
		{"huge", func(n int) ([]byte, error) { return touchedMapping(n, 1, true) }},
	}
	for _, w := range ways {
		b.Run(w.name, func(b *testing.B) {
			b.SetBytes(n)
			var sys time.Duration
			for b.Loop() {
				sys0 := systemTime()
				m, err := w.run(n)
				sys += systemTime() - sys0
				if err != nil {
					b.Skip(err)
				}
				if err := unix.Munmap(m); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(sys.Nanoseconds())/float64(b.N)/float64(n/pageSize), "sys-ns/page")
		})
	}
}

// pageSize is the base page size of x86-64 and arm64 Linux.
const pageSize = 4 << 10

// touchedMapping maps n anonymous bytes and writes a byte per page on
// threads goroutines, after asking for huge pages when huge (every page is
// still written: where huge pages are refused, the small pages' faults are
// counted, not skipped).
func touchedMapping(n, threads int, huge bool) ([]byte, error) {
	m, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return nil, err
	}
	if huge {
		if err := unix.Madvise(m, unix.MADV_HUGEPAGE); err != nil {
			unix.Munmap(m)
			return nil, fmt.Errorf("madvise: %w", err)
		}
	}
	var wg sync.WaitGroup
	for t := range threads {
		wg.Go(func() {
			for i := t * n / threads; i < (t+1)*n/threads; i += pageSize {
				m[i] = 1
			}
		})
	}
	wg.Wait()
	return m, nil
}

// populatedMapping maps n anonymous bytes with MAP_POPULATE.
func populatedMapping(n int) ([]byte, error) {
	return unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_POPULATE)
}

// memfdMapping allocates n bytes in a memfd (fallocate) and maps them
// populated.
func memfdMapping(n int) ([]byte, error) {
	fd, err := unix.MemfdCreate("pagecost", 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	if err := unix.Fallocate(fd, 0, 0, int64(n)); err != nil {
		return nil, err
	}
	return unix.Mmap(fd, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE)
}

// systemTime is the process's system CPU time so far.
func systemTime() time.Duration {
	var r syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &r)
	return time.Duration(r.Stime.Nano())
}
