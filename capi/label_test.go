package main

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/cclabel/cclabel/ecl"
)

// naiveLabels labels a 2D w x h image at 4-connectivity by flood fill,
// numbering components by first occurrence in row-major order: the
// oracle of TestLabelInto.
func naiveLabels(v []int, w, h int, fg func(int) bool, same func(a, b int) bool) ([]uint32, int) {
	lab := make([]uint32, len(v))
	n := 0
	for s := range v {
		if lab[s] != 0 || !fg(v[s]) {
			continue
		}
		n++
		lab[s] = uint32(n)
		stack := []int{s}
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := p%w, p/w
			for _, q := range [][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
				if q[0] < 0 || q[0] >= w || q[1] < 0 || q[1] >= h {
					continue
				}
				i := q[1]*w + q[0]
				if lab[i] == 0 && fg(v[i]) && same(v[p], v[i]) {
					lab[i] = uint32(n)
					stack = append(stack, i)
				}
			}
		}
	}
	return lab, n
}

func TestLabelInto(t *testing.T) {
	const w, h = 13, 9
	vals := make([]int, w*h)
	seed := uint32(7)
	for i := range vals {
		seed = seed*1664525 + 1013904223
		vals[i] = int(seed>>29) % 3
	}
	src := make([]int16, len(vals))
	for i, v := range vals {
		src[i] = int16(v)
	}
	l, err := parseLayout(2, []int64{h, w}, []int64{2 * w, 2}, 2)
	if err != nil {
		t.Fatal(err)
	}
	kind, _ := sampleKind(dtInt16)
	multi, nm := naiveLabels(vals, w, h, func(v int) bool { return v != 0 }, func(a, b int) bool { return a == b })
	binary, nb := naiveLabels(vals, w, h, func(v int) bool { return v != 0 }, func(a, b int) bool { return true })
	thresh, nt := naiveLabels(vals, w, h, func(v int) bool { return v >= 2 }, func(a, b int) bool { return true })
	inv, ni := naiveLabels(vals, w, h, func(v int) bool { return v < 2 }, func(a, b int) bool { return true })
	for _, tc := range []struct {
		name string
		args labelArgs
		want []uint32
		n    int
	}{
		{"multilabel", labelArgs{mode: modeMultilabel, conn: 4}, multi, nm},
		{"binary", labelArgs{mode: modeBinary, conn: 4}, binary, nb},
		{"threshold", labelArgs{mode: modeThreshold, threshold: 2, conn: 4}, thresh, nt},
		{"threshold invert", labelArgs{mode: modeThreshold, threshold: 2, invert: true, conn: 4}, inv, ni},
		{"serial", labelArgs{mode: modeBinary, conn: 4, backend: 3}, binary, nb},
	} {
		for _, out := range []int{dtUint32, dtUint16, dtUint64, dtInt32, dtInt64} {
			t.Run(tc.name+"/"+[]string{dtUint32: "uint32", dtUint16: "uint16", dtUint64: "uint64", dtInt32: "int32", dtInt64: "int64"}[out], func(t *testing.T) {
				dst := make([]uint64, len(vals)) // room for any label type
				n, err := labelInto(unsafe.Pointer(&src[0]), kind, l, unsafe.Pointer(&dst[0]), out, tc.args)
				if err != nil {
					t.Fatal(err)
				}
				got := make([]uint32, len(vals))
				for i := range got {
					switch out {
					case dtUint16:
						got[i] = uint32(unsafe.Slice((*uint16)(unsafe.Pointer(&dst[0])), len(vals))[i])
					case dtUint32, dtInt32:
						got[i] = unsafe.Slice((*uint32)(unsafe.Pointer(&dst[0])), len(vals))[i]
					default:
						got[i] = uint32(dst[i])
					}
				}
				if n != tc.n || !slices.Equal(got, tc.want) {
					t.Errorf("count %d, labels %v; want %d, %v", n, got, tc.n, tc.want)
				}
			})
		}
	}
	for _, tc := range []struct {
		name string
		args labelArgs
		out  int
		code int
	}{
		{"mode", labelArgs{mode: 7}, dtUint32, codeInvalid},
		{"invert without threshold", labelArgs{mode: modeBinary, invert: true}, dtUint32, codeInvalid},
		{"background binary", labelArgs{mode: modeBinary, background: 1}, dtUint32, codeInvalid},
		{"background not held", labelArgs{mode: modeMultilabel, background: 0.5}, dtUint32, codeInvalid},
		{"conn", labelArgs{conn: 26}, dtUint32, codeInvalid},
		{"order", labelArgs{order: 5}, dtUint32, codeInvalid},
		{"backend", labelArgs{backend: 9}, dtUint32, codeInvalid},
		{"threads", labelArgs{threads: -2}, dtUint32, codeInvalid},
		{"out type", labelArgs{}, dtFloat32, codeType},
		{"min size", labelArgs{minSize: -1}, dtUint32, codeInvalid},
	} {
		t.Run("error/"+tc.name, func(t *testing.T) {
			dst := make([]uint64, len(vals))
			_, err := labelInto(unsafe.Pointer(&src[0]), kind, l, unsafe.Pointer(&dst[0]), tc.out, tc.args)
			if codeOf(err) != tc.code {
				t.Errorf("error %v (code %d), want code %d", err, codeOf(err), tc.code)
			}
		})
	}
}

func TestGuard(t *testing.T) {
	err := guard(func() error { panic("boom") })
	if codeOf(err) != codeInternal || !strings.Contains(err.Error(), "boom") {
		t.Errorf("guard = %v, want CCL_EINTERNAL naming the panic", err)
	}
}

func TestCSREdges(t *testing.T) {
	ptr := []int64{0, 2, 3, 3}
	idx := []int64{1, 2, 0}
	us, vs, err := csrEdges[int64](3, unsafe.Pointer(&ptr[0]), unsafe.Pointer(&idx[0]), 3)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(us, []int32{0, 0, 1}) || !slices.Equal(vs, []int32{1, 2, 0}) {
		t.Errorf("edges %v %v", us, vs)
	}
	g, _ := ecl.FromEdges(3, us, vs)
	if g.NumVertices() != 3 {
		t.Errorf("%d vertices", g.NumVertices())
	}
	for _, tc := range []struct {
		name     string
		ptr, idx []int32
		nnz      int64
	}{
		{"index past n", []int32{0, 1}, []int32{1}, 1},
		{"negative index", []int32{0, 1}, []int32{-1}, 1},
		{"decreasing", []int32{0, 2, 1}, []int32{0, 1}, 2},
		{"nnz", []int32{0, 1}, []int32{0}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := csrEdges[int32](len(tc.ptr)-1, unsafe.Pointer(&tc.ptr[0]), unsafe.Pointer(&tc.idx[0]), tc.nnz)
			if codeOf(err) != codeInvalid {
				t.Errorf("error %v, want CCL_EINVAL", err)
			}
		})
	}
}

// TestNoSignalHandlers checks that the library's imports never install a
// handler for an asynchronous signal (os/signal), and that the CLI does
// not link the C ABI.
func TestNoSignalHandlers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skip("go list:", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "os/signal" {
			t.Errorf("capi depends on os/signal")
		}
	}
	// The CLI is built without cgo: go list fails when a package it needs
	// has only cgo files, and runtime/cgo must not be among its packages.
	cmd := exec.Command("go", "list", "-deps", "../cmd/cclabel")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err = cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("cmd/cclabel without cgo: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasSuffix(p, "/capi") || p == "runtime/cgo" || p == "C" {
			t.Errorf("cmd/cclabel without cgo depends on %s", p)
		}
	}
}
