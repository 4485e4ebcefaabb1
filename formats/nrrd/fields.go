package nrrd

import (
	"fmt"
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"math"
	"strconv"
	"strings"

	"github.com/cclabel/cclabel/imagegraph"
)

// interpret parses the fields a reader needs from raw, which maps
// normalized field keys (nrrdFieldKey) to their values. Errors name the
// field.
func (h *Header) interpret(raw map[string]string) error {
	for _, name := range []string{"type", "dimension", "sizes", "encoding"} {
		if _, ok := raw[name]; !ok {
			return fmt.Errorf("nrrd: missing field %q", name)
		}
	}
	typ := strings.ToLower(strings.Join(strings.Fields(raw["type"]), " "))
	if typ == "block" {
		return fileio.Unsupportedf("nrrd: type \"block\" is not supported")
	}
	canonical, ok := nrrdTypes[typ]
	if !ok {
		return fmt.Errorf("nrrd: unknown type %s", nrrdQuote(raw["type"]))
	}
	h.Type, h.Kind = canonical, nrrdKinds[canonical]
	dim, err := strconv.Atoi(raw["dimension"])
	if err != nil || dim < 1 || dim > nrrdMaxDimension {
		return fmt.Errorf("nrrd: field \"dimension\": %s is not a number from 1 to %d", nrrdQuote(raw["dimension"]), nrrdMaxDimension)
	}
	h.Dimension = dim
	if h.Sizes, err = nrrdSizes(raw["sizes"], dim); err != nil {
		return err
	}
	enc, ok := nrrdEncodings[strings.ToLower(raw["encoding"])]
	if !ok {
		return fileio.Unsupportedf("nrrd: unsupported encoding %s (want raw, ascii, hex, gzip or bzip2)", nrrdQuote(raw["encoding"]))
	}
	h.Encoding = enc
	if e, ok := raw["endian"]; ok {
		h.Endian = strings.ToLower(e)
		if h.Endian != "little" && h.Endian != "big" {
			return fmt.Errorf("nrrd: field \"endian\": %s is neither little nor big", nrrdQuote(e))
		}
	} else if h.Kind.Size() > 1 && h.Encoding != "ascii" {
		return fmt.Errorf("nrrd: missing field \"endian\" (needed for %s samples with %s encoding)", h.Type, h.Encoding)
	}
	if err := h.interpretSpace(raw); err != nil {
		return err
	}
	if s, ok := raw["spacings"]; ok {
		if h.Spacings, err = nrrdFloats("spacings", s, dim); err != nil {
			return err
		}
	}
	if k, ok := raw["kinds"]; ok {
		h.Kinds = strings.Fields(k)
		if len(h.Kinds) != dim {
			return fmt.Errorf("nrrd: field \"kinds\" has %d entries for dimension %d", len(h.Kinds), dim)
		}
	}
	if h.LineSkip, err = nrrdSkip(raw, "lineskip", "line skip", 0); err != nil {
		return err
	}
	if h.ByteSkip, err = nrrdSkip(raw, "byteskip", "byte skip", -1); err != nil {
		return err
	}
	if h.ByteSkip == -1 && h.Encoding != "raw" {
		return fmt.Errorf("nrrd: \"byte skip: -1\" (data at the end of the file) needs raw encoding, not %s", h.Encoding)
	}
	h.DataFileDim = dim
	if d, ok := raw["datafile"]; ok {
		return h.interpretDataFile(d)
	}
	return nil
}

// nrrdSizes parses the "sizes" field: dim positive integers.
func nrrdSizes(s string, dim int) ([]int, error) {
	parts := strings.Fields(s)
	if len(parts) != dim {
		return nil, fmt.Errorf("nrrd: field \"sizes\" has %d entries for dimension %d", len(parts), dim)
	}
	sizes := make([]int, dim)
	for i, p := range parts {
		v, err := strconv.ParseInt(p, 10, 64)
		if err != nil || v < 1 || v > imagegraph.MaxPixels {
			return nil, fmt.Errorf("nrrd: field \"sizes\": %s is not a size from 1 to %d", nrrdQuote(p), imagegraph.MaxPixels)
		}
		sizes[i] = int(v)
	}
	return sizes, nil
}

// nrrdFloats parses n whitespace-separated numbers ("nan" allowed).
func nrrdFloats(field, s string, n int) ([]float64, error) {
	parts := strings.Fields(s)
	if len(parts) != n {
		return nil, fmt.Errorf("nrrd: field %q has %d entries for dimension %d", field, len(parts), n)
	}
	out := make([]float64, n)
	for i, p := range parts {
		v, err := strconv.ParseFloat(p, 64)
		if err != nil {
			return nil, fmt.Errorf("nrrd: field %q: %s is not a number", field, nrrdQuote(p))
		}
		out[i] = v
	}
	return out, nil
}

// nrrdSkip parses "line skip" or "byte skip" (key normalized, name as
// written in messages): an integer from least up, 0 when absent.
func nrrdSkip(raw map[string]string, key, name string, least int64) (int64, error) {
	s, ok := raw[key]
	if !ok {
		return 0, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < least {
		return 0, fmt.Errorf("nrrd: field %q: %s is not a number of at least %d", name, nrrdQuote(s), least)
	}
	return v, nil
}

// interpretSpace parses "space", "space dimension", "space directions"
// and "space origin".
func (h *Header) interpretSpace(raw map[string]string) error {
	if s, ok := raw["space"]; ok {
		sp, ok := nrrdSpaces[strings.ToLower(s)]
		if !ok {
			return fmt.Errorf("nrrd: field \"space\": unknown space %s", nrrdQuote(s))
		}
		h.Space, h.SpaceDimension = sp.name, sp.dim
	}
	if s, ok := raw["spacedimension"]; ok {
		d, err := strconv.Atoi(s)
		if err != nil || d < 1 || d > nrrdMaxDimension {
			return fmt.Errorf("nrrd: field \"space dimension\": %s is not a number from 1 to %d", nrrdQuote(s), nrrdMaxDimension)
		}
		if h.SpaceDimension != 0 && h.SpaceDimension != d {
			return fmt.Errorf("nrrd: \"space dimension: %d\" contradicts \"space: %s\"", d, h.Space)
		}
		h.SpaceDimension = d
	}
	_, dirs := raw["spacedirections"]
	_, origin := raw["spaceorigin"]
	if (dirs || origin) && h.SpaceDimension == 0 {
		return fmt.Errorf("nrrd: \"space directions\" and \"space origin\" need a \"space\" or \"space dimension\" field")
	}
	if dirs {
		vecs, err := nrrdVectors("space directions", raw["spacedirections"], h.SpaceDimension)
		if err != nil {
			return err
		}
		if len(vecs) != h.Dimension {
			return fmt.Errorf("nrrd: field \"space directions\" has %d entries for dimension %d", len(vecs), h.Dimension)
		}
		h.SpaceDirections = vecs
	}
	if origin {
		vecs, err := nrrdVectors("space origin", raw["spaceorigin"], h.SpaceDimension)
		if err != nil {
			return err
		}
		if len(vecs) != 1 || vecs[0] == nil {
			return fmt.Errorf("nrrd: field \"space origin\" must be one vector")
		}
		h.SpaceOrigin = vecs[0]
	}
	return nil
}

// nrrdVectors parses a list of vectors "(a,b,c) (d,e,f) none" of n
// components each; "none" gives a nil vector. Components must be finite.
func nrrdVectors(field, s string, n int) ([][]float64, error) {
	var out [][]float64
	for rest := strings.TrimSpace(s); rest != ""; rest = strings.TrimSpace(rest) {
		if !strings.HasPrefix(rest, "(") {
			word, tail, _ := strings.Cut(rest, " ")
			if strings.ToLower(word) != "none" {
				return nil, fmt.Errorf("nrrd: field %q: %s is neither a vector nor none", field, nrrdQuote(word))
			}
			out, rest = append(out, nil), tail
			continue
		}
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return nil, fmt.Errorf("nrrd: field %q: vector without a closing parenthesis", field)
		}
		parts := strings.Split(rest[1:end], ",")
		if len(parts) != n {
			return nil, fmt.Errorf("nrrd: field %q: vector %s has %d components, the space has %d", field, nrrdQuote(rest[:end+1]), len(parts), n)
		}
		vec := make([]float64, n)
		for i, p := range parts {
			v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("nrrd: field %q: %s is not a finite number", field, nrrdQuote(strings.TrimSpace(p)))
			}
			vec[i] = v
		}
		out, rest = append(out, vec), rest[end+1:]
	}
	return out, nil
}
