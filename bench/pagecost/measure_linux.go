package main

import (
	"fmt"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// smallPage and hugePage are the base and transparent huge page sizes
// of x86-64 and arm64 Linux with 4 KiB pages.
const smallPage, hugePage = 4 << 10, 2 << 20

// way gets n bytes of fresh memory and touches its pages; mapped, when not
// zero, is the part of the time spent mapping already allocated pages.
type way struct {
	name string
	run  func(n int) (b []byte, mapped time.Duration, err error)
}

// measure prints each way's times over runs runs of n bytes.
func measure(n, runs int) error {
	ways := []way{
		{"touch, 1 thread", func(n int) ([]byte, time.Duration, error) { return touched(n, 1, smallPage, false) }},
		{"touch, 2 threads", func(n int) ([]byte, time.Duration, error) { return touched(n, 2, smallPage, false) }},
		{"populate (MAP_POPULATE)", populated},
		{"memfd: fallocate + populated map", memfd},
		{"huge pages (MADV_HUGEPAGE)", func(n int) ([]byte, time.Duration, error) { return touched(n, 1, smallPage, true) }},
	}
	fmt.Printf("%-34s %9s %9s %12s %s\n", "way", "wall ms", "sys ms", "sys us/4KiB", "(mapping alone)")
	for _, w := range ways {
		for range runs {
			sys0 := systemTime()
			start := time.Now()
			b, mapped, err := w.run(n)
			wall, sys := time.Since(start), systemTime()-sys0
			if err != nil {
				return fmt.Errorf("%s: %w", w.name, err)
			}
			if err := unix.Munmap(b); err != nil {
				return fmt.Errorf("%s: %w", w.name, err)
			}
			note := ""
			if mapped > 0 {
				note = fmt.Sprintf("(%.1f ms, %.2f us/4KiB)", ms(mapped), float64(mapped.Microseconds())/float64(n/smallPage))
			}
			fmt.Printf("%-34s %9.1f %9.1f %12.2f %s\n", w.name, ms(wall), ms(sys), float64(sys.Microseconds())/float64(n/smallPage), note)
		}
	}
	return nil
}

// touched maps n anonymous bytes and writes a byte every step bytes on
// threads goroutines, after asking for huge pages when huge (every 4 KiB
// page is still written: where huge pages are refused, the small pages'
// faults are counted, not skipped).
func touched(n, threads, step int, huge bool) ([]byte, time.Duration, error) {
	b, err := unix.Mmap(-1, 0, n+hugePage, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return nil, 0, err
	}
	if huge {
		if err := unix.Madvise(b, unix.MADV_HUGEPAGE); err != nil {
			return b, 0, err
		}
	}
	var wg sync.WaitGroup
	for t := range threads {
		wg.Go(func() {
			for i := t * n / threads; i < (t+1)*n/threads; i += step {
				b[i] = 1
			}
		})
	}
	wg.Wait()
	return b, 0, nil
}

// populated maps n anonymous bytes with MAP_POPULATE.
func populated(n int) ([]byte, time.Duration, error) {
	b, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_POPULATE)
	return b, 0, err
}

// memfd allocates n bytes in a memfd (fallocate) and maps them populated,
// returning the time of the mapping alone.
func memfd(n int) ([]byte, time.Duration, error) {
	fd, err := unix.MemfdCreate("pagecost", 0)
	if err != nil {
		return nil, 0, err
	}
	defer unix.Close(fd)
	if err := unix.Fallocate(fd, 0, 0, int64(n)); err != nil {
		return nil, 0, err
	}
	start := time.Now()
	b, err := unix.Mmap(fd, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE)
	return b, time.Since(start), err
}

// systemTime is the process's system CPU time so far.
func systemTime() time.Duration {
	var r syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &r)
	return time.Duration(r.Stime.Nano())
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }
