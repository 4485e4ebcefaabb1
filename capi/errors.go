package main

/*
#include <stddef.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/imagegraph/measure"
)

// The status codes every exported function returns. cclabel.h and the
// Python package (python/cclabel/_lib.py) repeat them.
const (
	codeOK       = 0 // CCL_OK: success
	codeInvalid  = 1 // CCL_EINVAL: an argument is not valid (shape, strides, rule, options)
	codeType     = 2 // CCL_ETYPE: an unsupported dtype
	codeTooLarge = 3 // CCL_ETOOLARGE: sizes past the library's limits, or memory exhausted
	codeRange    = 4 // CCL_ERANGE: a result does not fit the caller's output (dtype or length)
	codeDevice   = 5 // CCL_EDEVICE: the GPU backend failed or is not usable
	codeInternal = 6 // CCL_EINTERNAL: any other failure
)

// codeError is an error with the status code it returns as.
type codeError struct {
	code int
	msg  string
}

func (e *codeError) Error() string { return e.msg }

// errorf returns a *codeError of the given code with a formatted message.
func errorf(code int, format string, args ...any) error {
	return &codeError{code: code, msg: fmt.Sprintf(format, args...)}
}

// codeOf returns the status code of err: its own for a *codeError,
// CCL_EINVAL for the facade's and measure's errors about their inputs,
// CCL_EINTERNAL otherwise, and CCL_OK for nil.
func codeOf(err error) int {
	if err == nil {
		return codeOK
	}
	var ce *codeError
	if errors.As(err, &ce) {
		return ce.code
	}
	var be *cclabel.BackgroundError
	var le *measure.LabelError
	if errors.As(err, &be) || errors.As(err, &le) {
		return codeInvalid
	}
	return codeInternal
}

// setError writes err's message into buf, a C buffer of n bytes,
// NUL-terminated and truncated to fit, and returns err's status code
// (CCL_OK, leaving buf as it is, for nil). A nil buf or n 0 writes nothing.
func setError(err error, buf *C.char, n C.size_t) C.int {
	code := codeOf(err)
	if err == nil || buf == nil || n == 0 {
		return C.int(code)
	}
	writeMessage(unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(n)), err.Error())
	return C.int(code)
}

// writeMessage copies msg into dst, truncated to len(dst)-1 bytes and
// NUL-terminated. An empty dst is left as it is.
func writeMessage(dst []byte, msg string) {
	if len(dst) == 0 {
		return
	}
	k := copy(dst[:len(dst)-1], msg)
	dst[k] = 0
}
