package imagegraph

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// SampleValue is one sample of a raster, held exactly. Its 64-bit integers
// keep every digit, which a float64 does not beyond 2^53. The zero
// SampleValue (Kind 0) holds no sample.
type SampleValue struct {
	// Kind is the sample's type.
	Kind SampleKind
	// bits is an unsigned kind's value, a signed kind's value as int64
	// bits, or a float kind's value as float64 bits.
	bits uint64
}

// SampleAt returns sample i of r exactly, packed RGB as its 0xRRGGBB
// value of kind [RGB]. It is meant for statistics and tests, not for hot
// loops.
func (r *Raster) SampleAt(i int) SampleValue {
	if r.Data == nil {
		return SampleValue{}
	}
	v := r.Data.At(i)
	if r.Kind == RGB && v.Kind == Uint32 {
		v.Kind = RGB
	}
	return v
}

// Float returns the sample as a float64. 64-bit integers beyond 2^53 are
// rounded; the zero SampleValue gives NaN.
func (v SampleValue) Float() float64 {
	switch {
	case !v.Kind.valid():
		return math.NaN()
	case kinds[v.Kind].float:
		return math.Float64frombits(v.bits)
	case kinds[v.Kind].signed:
		return float64(int64(v.bits))
	}
	return float64(v.bits)
}

// AppendText appends the sample to b as text. Integer kinds (and packed
// RGB) are decimal integers, every digit kept; float kinds the shortest
// decimal that reads back as the same float32 or float64
// (strconv.FormatFloat with format 'g' and precision -1). It fails for
// the zero SampleValue.
func (v SampleValue) AppendText(b []byte) ([]byte, error) {
	switch {
	case !v.Kind.valid():
		return b, fmt.Errorf("imagegraph: no sample of kind %v", v.Kind)
	case kinds[v.Kind].float:
		return strconv.AppendFloat(b, math.Float64frombits(v.bits), 'g', -1, 8*v.Kind.Size()), nil
	case kinds[v.Kind].signed:
		return strconv.AppendInt(b, int64(v.bits), 10), nil
	}
	return strconv.AppendUint(b, v.bits, 10), nil
}

// String returns the sample as [SampleValue.AppendText] writes it ("?"
// for the zero SampleValue).
func (v SampleValue) String() string {
	b, err := v.AppendText(nil)
	if err != nil {
		return "?"
	}
	return string(b)
}

// MarshalJSON returns the sample as a JSON number. Integers keep every
// digit; floats are written as encoding/json writes a float32 or float64
// (so NaN and infinities fail, as they do there).
func (v SampleValue) MarshalJSON() ([]byte, error) {
	switch v.Kind {
	case Float32:
		return json.Marshal(float32(math.Float64frombits(v.bits)))
	case Float64:
		return json.Marshal(math.Float64frombits(v.bits))
	}
	return v.AppendText(nil)
}
