package npy

import (
	"bytes"
	"slices"
	"testing"
)

// TestReadNPYShape reads files whose shape entry is well formed or not:
// the errors quote the tuple and name the dimension at fault.
func TestReadNPYShape(t *testing.T) {
	file := func(shape string, data int) []byte {
		return npyFile("{'descr': '|u1', 'fortran_order': False, 'shape': "+shape+", }", make([]byte, data))
	}
	tests := []struct {
		name string
		file []byte
		dims []int  // for a good shape
		err  string // for a bad one, the whole message
	}{
		{"2D", file("(3, 4)", 12), []int{3, 4}, ""},
		{"3D, no spaces", file("(2,3,4)", 24), []int{2, 3, 4}, ""},
		{"Python 2 longs", file("(3L, 4L)", 12), []int{3, 4}, ""},
		{"1D, trailing comma", file("(6,)", 6), nil, "npy: array of 1 dimensions: want 2 (an image) or 3 (a volume)"},
		{"0-d", file("()", 1), nil, "npy: array of 0 dimensions: want 2 (an image) or 3 (a volume)"},
		{"negative", file("(3, -2)", 0), nil, "npy: shape (3, -2): negative dimension -2"},
		{"negative first", file("(-1, 4, 4)", 0), nil, "npy: shape (-1, 4, 4): negative dimension -1"},
		{"negative and huge", file("(3, -99999999999999999999)", 0), nil, "npy: shape (3, -99999999999999999999): negative dimension -99999999999999999999"},
		{"too large", file("(3, 2147483648)", 0), nil, "npy: shape (3, 2147483648): dimension 2147483648 is too large (at most 2147483647)"},
		{"past int64", file("(99999999999999999999, 1)", 0), nil, "npy: shape (99999999999999999999, 1): dimension 99999999999999999999 is too large (at most 2147483647)"},
		{"a name", file("(3, x)", 0), nil, `npy: malformed shape (3, x): "x" is not a dimension`},
		{"a float", file("(3, 4.0)", 0), nil, `npy: malformed shape (3, 4.0): "4.0" is not a dimension`},
		{"an empty dimension", file("(3,, 4)", 0), nil, `npy: malformed shape (3,, 4): "" is not a dimension`},
		{"a lone comma", file("(,)", 0), nil, `npy: malformed shape (,): "" is not a dimension`},
		{"a list", file("[3, 4]", 0), nil, "npy: malformed shape [3, 4]: want a tuple such as (3, 4)"},
		{"unclosed", npyFile("{'descr': '|u1', 'fortran_order': False, 'shape': (3, 4", nil), nil,
			"npy: malformed shape (3, 4: no closing parenthesis"},
		{"control bytes", file("(3, \x01)", 0), nil, `npy: malformed shape "(3, \x01)": "\x01" is not a dimension`},
		{"long", file("(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, x)", 0), nil,
			`npy: malformed shape (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, ...: "x" is not a dimension`},
		{"no shape", npyFile("{'descr': '|u1', 'fortran_order': False, }", nil), nil, "npy: header has no 'shape'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Read(bytes.NewReader(tc.file), int64(len(tc.file)))
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := []int{r.Height, r.Width} // C order: (H, W) or (Z, Y, X)
			if len(tc.dims) == 3 {
				got = []int{r.Depth, r.Height, r.Width}
			}
			if !slices.Equal(got, tc.dims) {
				t.Fatalf("shape %v, want %v", got, tc.dims)
			}
		})
	}
}
