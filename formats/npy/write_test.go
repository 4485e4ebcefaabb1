package npy

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"
)

// TestWriteLabelsSamples checks the sample bytes of every dtype for
// lengths around the 1 MiB conversion chunks, and empty arrays: they are
// the labels little-endian, right after the header.
func TestWriteLabelsSamples(t *testing.T) {
	for _, dtype := range []string{"uint8", "uint16", "int32", "uint32"} {
		dt := npyDtypes[dtype]
		chunk := (1 << 20) / dt.size
		for _, n := range []int{0, 1, chunk - 1, chunk, chunk + 1, 3*chunk + 5} {
			labels := make([]uint32, n)
			for i := range labels {
				labels[i] = uint32(i*2654435761) % uint32(min(dt.max, 1<<31-1)+1)
			}
			var want []byte
			for _, l := range labels {
				switch dt.size {
				case 1:
					want = append(want, byte(l))
				case 2:
					want = binary.LittleEndian.AppendUint16(want, uint16(l))
				default:
					want = binary.LittleEndian.AppendUint32(want, l)
				}
			}
			var buf bytes.Buffer
			if err := WriteLabels(&buf, labels, []int{n}, dtype); err != nil {
				t.Fatal(err)
			}
			got, ok := bytes.CutPrefix(buf.Bytes(), npyHeader(dt.descr, []int{n}, false))
			if !ok || !bytes.Equal(got, want) {
				t.Fatalf("%s, %d labels: samples differ", dtype, n)
			}
		}
	}
}

// TestWriteLabelsRange checks that a label too large for the dtype fails
// before anything is written.
func TestWriteLabelsRange(t *testing.T) {
	for dtype, big := range map[string]uint32{"uint8": 256, "uint16": 65536, "int32": 1 << 31} {
		labels := make([]uint32, 300000)
		labels[len(labels)-1] = big
		var buf bytes.Buffer
		err := WriteLabels(&buf, labels, []int{len(labels)}, dtype)
		want := fmt.Sprintf("npy: label %d at index %d does not fit %s", big, len(labels)-1, dtype)
		if err == nil || err.Error() != want || buf.Len() != 0 {
			t.Errorf("%s: err %v, %d bytes written; want %q and none", dtype, err, buf.Len(), want)
		}
	}
}
