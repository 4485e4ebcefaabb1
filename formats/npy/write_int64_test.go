package npy

import (
	"bytes"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

func TestWriteInt64RoundTrip(t *testing.T) {
	data := []int64{0, 1, 5, -3, 1 << 40, 7}
	var buf bytes.Buffer
	if err := WriteInt64(&buf, data, []int{3, 2}); err != nil {
		t.Fatal(err)
	}
	r, err := Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind != imagegraph.Int64 || r.Width != 2 || r.Height != 3 || !slices.Equal(r.Data.(imagegraph.Samples[int64]), data) {
		t.Fatalf("read back %+v", r)
	}
	if err := WriteInt64(&buf, data, []int{4, 2}); err == nil {
		t.Error("wrong shape accepted")
	}
}
