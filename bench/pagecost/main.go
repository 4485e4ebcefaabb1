// Command pagecost measures what first touching fresh memory costs on this
// machine, the floor under a labeling run that fills a fresh label array:
// for each way of getting a 256 MiB buffer's pages it prints the wall
// time, the system time and the system time per 4 KiB page.
//
//	go run ./bench/pagecost [-mib 256] [-runs 3]
//
// Ways: "touch" writes a byte per page of an anonymous mapping (one
// thread, then two, each on half); "populate" maps it with MAP_POPULATE;
// "memfd" allocates the pages in a memfd with fallocate first and then maps
// them populated (the mapping alone is timed separately); "huge" asks for
// transparent huge pages (MADV_HUGEPAGE) before touching.
// Linux only.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	mib := flag.Int("mib", 256, "buffer size in MiB")
	runs := flag.Int("runs", 3, "runs of each way")
	flag.Parse()
	if *mib <= 0 || *mib > 1<<20 || *runs <= 0 {
		fmt.Fprintln(os.Stderr, "pagecost: want -mib in 1..1048576 and -runs of at least 1")
		os.Exit(2)
	}
	if err := measure(*mib<<20, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "pagecost:", err)
		os.Exit(1)
	}
}
