package imagegraph

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Mode is how samples become foreground and connect.
type Mode int

const (
	// Multilabel joins neighbours whose values are equal and nonzero: on
	// 0/1 masks it equals Binary, on label maps it keeps labels apart.
	Multilabel Mode = iota
	// Binary joins any nonzero neighbours.
	Binary
	// Threshold joins neighbours whose values are >= Rule.Threshold
	// (< with Rule.Invert).
	Threshold
)

// Rule decides which samples are foreground and which neighbours join.
type Rule struct {
	// Mode is how samples become foreground and join.
	Mode Mode
	// Threshold is the least foreground value of a Threshold rule (the
	// least background value with Invert).
	Threshold float64
	// Invert makes a Threshold rule's foreground the values below it.
	Invert bool
	// Slope and Inter scale stored values before a threshold compares
	// them: value = stored*Slope + Inter (NIfTI scl_slope/scl_inter).
	// Slope 0 means 1. Multilabel and binary rules use stored values.
	Slope, Inter float64
}

// Scale returns the scaling a threshold applies to stored values, with
// Slope 0 read as 1.
func (r Rule) Scale() (slope, inter float64) {
	if r.Slope == 0 {
		return 1, r.Inter
	}
	return r.Slope, r.Inter
}

// String describes the rule as [ParseRule] reads it: "multilabel",
// "binary", "threshold:T" or "threshold:T:invert".
func (r Rule) String() string {
	switch r.Mode {
	case Multilabel:
		return "multilabel"
	case Binary:
		return "binary"
	case Threshold:
		s := "threshold:" + strconv.FormatFloat(r.Threshold, 'g', -1, 64)
		if r.Invert {
			s += ":invert"
		}
		return s
	}
	return fmt.Sprintf("Mode(%d)", int(r.Mode))
}

// ParseRule parses a rule as [Rule.String] writes it: "multilabel",
// "binary", "threshold:T" or "threshold:T:invert".
func ParseRule(s string) (Rule, error) {
	switch s {
	case "multilabel":
		return Rule{Mode: Multilabel}, nil
	case "binary":
		return Rule{Mode: Binary}, nil
	}
	parts := strings.Split(s, ":")
	if parts[0] == "threshold" && (len(parts) == 2 || (len(parts) == 3 && parts[2] == "invert")) {
		t, err := strconv.ParseFloat(parts[1], 64)
		if err == nil && !math.IsNaN(t) {
			return Rule{Mode: Threshold, Threshold: t, Invert: len(parts) == 3}, nil
		}
	}
	return Rule{}, fmt.Errorf("imagegraph: unknown rule %q (want multilabel, binary, threshold:T or threshold:T:invert)", s)
}

// Validate checks the rule.
func (r Rule) Validate() error {
	if r.Mode < Multilabel || r.Mode > Threshold {
		return fmt.Errorf("imagegraph: unknown mode %d", int(r.Mode))
	}
	if r.Mode == Threshold && math.IsNaN(r.Threshold) {
		return fmt.Errorf("imagegraph: threshold is NaN")
	}
	if math.IsNaN(r.Slope) || math.IsInf(r.Slope, 0) || math.IsNaN(r.Inter) || math.IsInf(r.Inter, 0) {
		return fmt.Errorf("imagegraph: scaling %g*x%+g is not finite", r.Slope, r.Inter)
	}
	return nil
}

// Foreground reports whether a sample value is foreground under the rule.
// NaN is background in every mode.
func (r Rule) Foreground(v float64) bool {
	switch {
	case math.IsNaN(v):
		return false
	case r.Mode == Threshold:
		slope, inter := r.Scale()
		return (float64(v*slope)+inter >= r.Threshold) != r.Invert // rounded product: no fused multiply-add
	}
	return v != 0
}

// ValidConnectivity checks a connectivity: 4 or 8 in 2D, 6, 18 or 26 in 3D.
func ValidConnectivity(conn int, is3D bool) error {
	switch {
	case !is3D && (conn == 4 || conn == 8):
	case is3D && (conn == 6 || conn == 18 || conn == 26):
	case is3D:
		return fmt.Errorf("imagegraph: connectivity %d is not a 3D connectivity (6, 18 or 26)", conn)
	default:
		return fmt.Errorf("imagegraph: connectivity %d is not a 2D connectivity (4 or 8)", conn)
	}
	return nil
}
