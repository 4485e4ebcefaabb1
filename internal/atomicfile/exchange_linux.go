package atomicfile

import (
	"errors"
	"runtime"
	"syscall"
	"unsafe"
)

// sysRenameat2 is the renameat2 system call's number on the architectures
// that have it in the generic table or where it is known; 0 elsewhere.
var sysRenameat2 = map[string]uintptr{"amd64": 316, "arm64": 276, "riscv64": 276, "loong64": 276, "386": 353, "arm": 382}[runtime.GOARCH]

// renameExchange is RENAME_EXCHANGE from <linux/fs.h>.
const renameExchange = 2

// exchange swaps the files at a and b atomically.
func exchange(a, b string) error {
	if sysRenameat2 == 0 {
		return errors.ErrUnsupported
	}
	pa, err := syscall.BytePtrFromString(a)
	if err != nil {
		return err
	}
	pb, err := syscall.BytePtrFromString(b)
	if err != nil {
		return err
	}
	atFDCWD := -100
	_, _, e := syscall.Syscall6(sysRenameat2, uintptr(atFDCWD), uintptr(unsafe.Pointer(pa)),
		uintptr(atFDCWD), uintptr(unsafe.Pointer(pb)), renameExchange, 0)
	if e != 0 {
		return e
	}
	return nil
}
