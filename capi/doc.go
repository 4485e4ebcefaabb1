// Command capi is the C ABI of cclabel: built with
//
//	go build -buildmode=c-shared -o libcclabel.so ./capi
//
// it is a shared library of flat C functions over the facade (package
// cclabel), which the Python package in python/ loads with ctypes.
// cclabel.h declares them; docs/python.md describes the contract.
//
// Every function returns a status code (CCL_OK, 0, or one of the codes of
// errors.go) and, on failure, writes a NUL-terminated message into the
// caller's buffer err of errlen bytes, truncated to fit. Arrays are the
// caller's memory, read and written in place during the call: no Go code
// keeps a C pointer after the call returns, and the library never installs
// a handler for an asynchronous signal, so the host process keeps its own
// (Python's Ctrl-C).
package main

func main() {}
