package nrrd

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// nrrdHeaderReader reads the lines of a NRRD header and counts the bytes
// they take.
type nrrdHeaderReader struct {
	br *bufio.Reader
	// read is the number of bytes consumed so far.
	read int64
}

// line returns the next line without its line ending; eof is set when the
// input ended (line then holds any last, unterminated text).
func (hr *nrrdHeaderReader) line() (line string, eof bool, err error) {
	var b []byte
	for {
		chunk, err := hr.br.ReadSlice('\n')
		hr.read += int64(len(chunk))
		if hr.read > nrrdMaxHeaderBytes {
			return "", false, fmt.Errorf("nrrd: header longer than %d bytes (no blank line after it?)", nrrdMaxHeaderBytes)
		}
		b = append(b, chunk...)
		switch {
		case err == nil:
			return strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r"), false, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return strings.TrimSuffix(string(b), "\r"), true, nil
		default:
			return "", false, fmt.Errorf("nrrd: reading the header: %w", err)
		}
	}
}

// parseNRRDHeader reads a NRRD header from br. It returns the header, the
// number of bytes it takes including the blank line that ends it, and
// whether there was such a blank line (attached data may follow) or the
// input ended first.
func parseNRRDHeader(br *bufio.Reader) (h *Header, size int64, blank bool, err error) {
	hr := &nrrdHeaderReader{br: br}
	magic, eof, err := hr.line()
	if err != nil {
		return nil, 0, false, err
	}
	h = &Header{}
	if len(magic) != 8 || !strings.HasPrefix(magic, "NRRD000") || magic[7] < '1' || magic[7] > '5' {
		if len(magic) > 16 {
			magic = magic[:16] + "..."
		}
		return nil, 0, false, fmt.Errorf("nrrd: not a NRRD file (bad magic %q; want NRRD0001 to NRRD0005)", magic)
	}
	h.Version = int(magic[7] - '0')
	raw := map[string]string{}
	list := false
	for lineNo := 2; !eof; lineNo++ {
		var line string
		line, eof, err = hr.line()
		if err != nil {
			return nil, 0, false, err
		}
		if strings.TrimRight(line, " \t\r") == "" {
			if eof {
				break
			}
			blank = true
			break
		}
		if list {
			h.DataFiles = append(h.DataFiles, strings.TrimSpace(line))
			continue
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		// As teem does, a line holding ":=" is a key/value pair.
		if key, value, ok := strings.Cut(line, ":="); ok {
			h.Fields = append(h.Fields, Field{Key: strings.TrimSpace(key), Value: value, Pair: true})
			continue
		}
		colon := strings.IndexByte(line, ':')
		if colon < 0 {
			return nil, 0, false, fmt.Errorf("nrrd: header line %d %s is neither a field nor a key/value pair", lineNo, nrrdQuote(line))
		}
		f := Field{Key: strings.TrimSpace(line[:colon]), Value: strings.TrimSpace(line[colon+1:])}
		h.Fields = append(h.Fields, f)
		key := nrrdFieldKey(f.Key)
		if _, dup := raw[key]; dup {
			return nil, 0, false, fmt.Errorf("nrrd: field %q given twice", f.Key)
		}
		raw[key] = f.Value
		if key == "datafile" && strings.HasPrefix(f.Value, "LIST") && (len(f.Value) == 4 || f.Value[4] == ' ' || f.Value[4] == '\t') {
			list = true
		}
	}
	if err := h.interpret(raw); err != nil {
		return nil, 0, false, err
	}
	return h, hr.read, blank, nil
}

// nrrdFieldKey normalizes a field identifier: lower case without spaces,
// so that "line skip" and "lineskip" are the same field.
func nrrdFieldKey(key string) string {
	return strings.ToLower(strings.Join(strings.Fields(key), ""))
}

// nrrdQuote quotes a header line for a message, shortened when long.
func nrrdQuote(line string) string {
	if len(line) > 60 {
		line = line[:60] + "..."
	}
	return fmt.Sprintf("%q", line)
}
