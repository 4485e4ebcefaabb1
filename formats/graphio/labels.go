package graphio

import (
	"fmt"
	"io"
	"strconv"
)

// WriteLabelsText writes one "id label" line per vertex to w. id(v) gives
// vertex v's ID as the input file named it.
func WriteLabelsText(w io.Writer, labels []uint32, id func(v int) int64) error {
	buf := make([]byte, 0, 1<<16)
	for v, l := range labels {
		buf = strconv.AppendInt(buf, id(v), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendUint(buf, uint64(l), 10)
		buf = append(buf, '\n')
		if len(buf) > 1<<16-64 {
			if _, err := w.Write(buf); err != nil {
				return fmt.Errorf("labels: %w", err)
			}
			buf = buf[:0]
		}
	}
	if _, err := w.Write(buf); err != nil {
		return fmt.Errorf("labels: %w", err)
	}
	return nil
}
