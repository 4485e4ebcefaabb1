package nrrd

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// nrrdMaxDataFiles bounds the number of detached data files.
const nrrdMaxDataFiles = 1 << 20

// interpretDataFile parses the "data file" field: one file name, "LIST
// [<subdim>]" (the names were collected from the lines after the field)
// or "<format> <min> <max> <step> [<subdim>]" with a printf-style format
// holding one integer conversion.
func (h *Header) interpretDataFile(value string) error {
	tokens := strings.Fields(value)
	switch {
	case len(tokens) > 0 && tokens[0] == "LIST":
		if len(tokens) > 2 {
			return fmt.Errorf("nrrd: field \"data file\": %s: want LIST [<subdim>]", nrrdQuote(value))
		}
		if err := h.dataFileDim(tokens[1:]); err != nil {
			return err
		}
		if len(h.DataFiles) == 0 {
			return fmt.Errorf("nrrd: \"data file: LIST\" is followed by no file names")
		}
	case (len(tokens) == 4 || len(tokens) == 5) && strings.Contains(tokens[0], "%") && nrrdAllInts(tokens[1:]):
		if err := h.dataFileDim(tokens[4:]); err != nil {
			return err
		}
		files, err := nrrdExpandFormat(tokens[0], tokens[1], tokens[2], tokens[3])
		if err != nil {
			return err
		}
		h.DataFiles = files
	default:
		h.DataFiles = []string{value}
		h.DataFileDim = h.Dimension
		return nil
	}
	want := int64(1)
	for _, s := range h.Sizes[h.DataFileDim:] {
		want *= int64(s)
		if want > nrrdMaxDataFiles {
			break
		}
	}
	if want != int64(len(h.DataFiles)) {
		return fmt.Errorf("nrrd: field \"data file\" gives %d files; the sizes of the axes from %d on need %d",
			len(h.DataFiles), h.DataFileDim, want)
	}
	return nil
}

// dataFileDim sets DataFileDim from an optional <subdim> token, by default
// one less than the dimension.
func (h *Header) dataFileDim(tokens []string) error {
	h.DataFileDim = h.Dimension - 1
	if len(tokens) == 0 {
		return nil
	}
	d, err := strconv.Atoi(tokens[0])
	if err != nil || d < 1 || d > h.Dimension {
		return fmt.Errorf("nrrd: field \"data file\": <subdim> %s is not from 1 to the dimension %d", nrrdQuote(tokens[0]), h.Dimension)
	}
	h.DataFileDim = d
	return nil
}

// nrrdAllInts reports whether every token is a decimal integer.
func nrrdAllInts(tokens []string) bool {
	for _, t := range tokens {
		if _, err := strconv.ParseInt(t, 10, 64); err != nil {
			return false
		}
	}
	return true
}

// nrrdExpandFormat lists the file names of a "data file" format string for
// the numbers min, min+step, ... up to max.
func nrrdExpandFormat(format, minS, maxS, stepS string) ([]string, error) {
	prefix, verb, suffix, err := nrrdSplitFormat(format)
	if err != nil {
		return nil, err
	}
	var v [3]int64
	for i, s := range []string{minS, maxS, stepS} {
		n, _ := strconv.ParseInt(s, 10, 64)
		if n < math.MinInt32 || n > math.MaxInt32 {
			return nil, fmt.Errorf("nrrd: field \"data file\": %s is out of range", s)
		}
		v[i] = n
	}
	lo, hi, step := v[0], v[1], v[2]
	if step == 0 {
		return nil, fmt.Errorf("nrrd: field \"data file\": step 0")
	}
	if (hi != lo && (hi > lo) != (step > 0)) || (hi-lo)/step >= nrrdMaxDataFiles {
		return nil, fmt.Errorf("nrrd: field \"data file\": %d to %d in steps of %d gives no files or too many", lo, hi, step)
	}
	count := (hi-lo)/step + 1
	files := make([]string, 0, count)
	for i := range count {
		files = append(files, prefix+fmt.Sprintf(verb, lo+i*step)+suffix)
	}
	return files, nil
}

// nrrdSplitFormat splits a printf-style format with exactly one integer
// conversion (%d, %i or %u with flags and width) into the text before it,
// a Go verb for it and the text after it; "%%" is a literal percent sign.
func nrrdSplitFormat(format string) (prefix, verb, suffix string, err error) {
	bad := fmt.Errorf("nrrd: field \"data file\": format %s needs exactly one integer conversion such as %%03d", nrrdQuote(format))
	found := false
	var pre, post strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		out := &pre
		if found {
			out = &post
		}
		if c != '%' {
			out.WriteByte(c)
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			out.WriteByte('%')
			i++
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ 0#", format[j]) >= 0 {
			j++
		}
		for j < len(format) && format[j] >= '0' && format[j] <= '9' {
			j++
		}
		if found || j >= len(format) || strings.IndexByte("diu", format[j]) < 0 || j-i > 8 {
			return "", "", "", bad
		}
		found = true
		verb = format[i:j] + "d"
		i = j
	}
	if !found {
		return "", "", "", bad
	}
	return pre.String(), verb, post.String(), nil
}
