package formats

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/atomicfile"
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

// FrameTables are the tables of one frame: its statistics rows, their
// [Measures] (when [StatsOptions] asks for any) and its contacts.
type FrameTables struct {
	Stats    []imagegraph.ComponentStats
	Measures []Measures
	Contacts []Contact
}

// WriteTables writes a statistics file (as [WriteStatsTable], formatted as
// o says in the format of its extension) and a contacts file (as
// [WriteContacts]) of o.Frames frames. Either path may be "" for none or
// "-" for stdout; each is written through a temporary file renamed when
// complete. frame(t) gives frame t's tables; it is called once per frame,
// the contacts being kept from the statistics' pass.
func WriteTables(stats, contacts string, stdout io.Writer, o StatsOptions, frame func(t int) (FrameTables, error)) error {
	frames := max(o.Frames, 1)
	kept := make([][]Contact, frames)
	done := make([]bool, frames)
	run := func(t int) (FrameTables, error) {
		f, err := frame(t)
		kept[t], done[t] = f.Contacts, err == nil
		return f, err
	}
	write := func(path string, w func(io.Writer) error) error {
		if path == "-" {
			return w(stdout)
		}
		return atomicfile.WriteFile(path, w)
	}
	if stats != "" {
		o.Format = tableFormat(stats)
		err := write(stats, func(w io.Writer) error {
			return WriteStatsTable(w, o, func(t int) ([]imagegraph.ComponentStats, []Measures, error) {
				f, err := run(t)
				return f.Stats, f.Measures, err
			})
		})
		if err != nil {
			return err
		}
	}
	if contacts == "" {
		return nil
	}
	return write(contacts, func(w io.Writer) error {
		return WriteContacts(w, tableFormat(contacts), frames, func(t int) ([]Contact, error) {
			if !done[t] {
				if _, err := run(t); err != nil {
					return nil, err
				}
			}
			return kept[t], nil
		})
	})
}

// tableFormat returns the format of a table file from its extension; "-"
// (standard output) is CSV.
func tableFormat(path string) string {
	if path == "-" {
		return ".csv"
	}
	return strings.ToLower(filepath.Ext(path))
}
