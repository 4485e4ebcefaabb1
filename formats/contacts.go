package formats

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// Contact is a pair of components that share faces, as a contacts file
// lists it.
type Contact struct {
	// A and B are the labels, A < B.
	A, B uint32
	// Faces is the number of shared voxel faces (pixel edges in 2D), and
	// Area their physical area (length in 2D).
	Faces int64
	Area  float64
}

// contactRecord is one contact in a JSON contacts file.
type contactRecord struct {
	Frame *int      `json:"frame,omitempty"`
	A     uint32    `json:"label_a"`
	B     uint32    `json:"label_b"`
	Faces int64     `json:"faces"`
	Area  jsonFloat `json:"area_mm2"`
}

// WriteContacts writes the contacts of every frame, from 0 to frames-1, as
// contacts(t) returns them, as CSV (a header line, then
// label_a,label_b,faces,area_mm2) or JSON (an array of objects with the
// same fields, laid out as the statistics are). format is "csv" or "json",
// with or without a leading dot. With more than one frame every row leads
// with its frame, as in [WriteFrameStats]. Areas are the shortest decimals
// that read back as the same float64. An error from contacts stops the
// writing and is returned.
func WriteContacts(w io.Writer, format string, frames int, contacts func(t int) ([]Contact, error)) error {
	sw, err := newStatsWriter(w, format, false, nil, frames > 1)
	if err != nil {
		return err
	}
	if frames < 1 {
		return fmt.Errorf("contacts: %d frames", frames)
	}
	if !sw.json {
		header := "label_a,label_b,faces,area_mm2\n"
		if sw.frame {
			header = "frame," + header
		}
		if err := sw.write([]byte(header)); err != nil {
			return err
		}
	}
	for t := range frames {
		cs, err := contacts(t)
		if err != nil {
			return err
		}
		for _, c := range cs {
			if err := sw.contactRow(t, c); err != nil {
				return err
			}
			sw.rows++
		}
	}
	return sw.end()
}

// contactRow writes one contact as a CSV row or a JSON object.
func (sw *statsWriter) contactRow(t int, c Contact) error {
	line := sw.line[:0]
	if sw.json {
		rec := contactRecord{A: c.A, B: c.B, Faces: c.Faces, Area: jsonFloat(c.Area)}
		if sw.frame {
			rec.Frame = &t
		}
		b, err := json.MarshalIndent(rec, " ", " ")
		if err != nil {
			return fmt.Errorf("contacts: %w", err)
		}
		sep := ",\n "
		if sw.rows == 0 {
			sep = "[\n "
		}
		sw.line = append(append(line, sep...), b...)
		return sw.write(sw.line)
	}
	if sw.frame {
		line = strconv.AppendInt(line, int64(t), 10)
		line = append(line, ',')
	}
	line = strconv.AppendUint(line, uint64(c.A), 10)
	line = append(line, ',')
	line = strconv.AppendUint(line, uint64(c.B), 10)
	line = append(line, ',')
	line = strconv.AppendInt(line, c.Faces, 10)
	line = append(line, ',')
	line = strconv.AppendFloat(line, c.Area, 'g', -1, 64)
	sw.line = append(line, '\n')
	return sw.write(sw.line)
}
