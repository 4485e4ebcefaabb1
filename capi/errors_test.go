package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/imagegraph/measure"
)

func TestCodeOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, codeOK},
		{"code", errorf(codeType, "dtype %q", "complex64"), codeType},
		{"wrapped code", fmt.Errorf("ctx: %w", errorf(codeRange, "x")), codeRange},
		{"background", &cclabel.BackgroundError{Value: 300}, codeInvalid},
		{"label", &measure.LabelError{Index: 3, Label: 9, Count: 2}, codeInvalid},
		{"other", errors.New("boom"), codeInternal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := codeOf(tc.err); got != tc.want {
				t.Errorf("codeOf(%v) = %d, want %d", tc.err, got, tc.want)
			}
		})
	}
}

func TestWriteMessage(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		msg  string
		want string
	}{
		{"fits", 16, "hello", "hello"},
		{"exact", 6, "hello", "hello"},
		{"truncated", 4, "hello", "hel"},
		{"one byte", 1, "hello", ""},
		{"empty message", 4, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			buf := make([]byte, tc.n)
			for i := range buf {
				buf[i] = 'x'
			}
			writeMessage(buf, tc.msg)
			k := len(tc.want)
			if string(buf[:k]) != tc.want || buf[k] != 0 {
				t.Errorf("writeMessage(%d, %q) = %q, want %q and a NUL", tc.n, tc.msg, buf, tc.want)
			}
		})
	}
	writeMessage(nil, "x") // must not panic
}
