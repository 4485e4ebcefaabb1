package imagegraph

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// A SampleValue is one sample of a raster, held exactly: 64-bit integers
// keep every digit, which a float64 does not beyond 2^53. The zero
// SampleValue (Kind 0) holds no sample.
type SampleValue struct {
	// Kind is the sample's type.
	Kind SampleKind
	// bits is an unsigned kind's value, a signed kind's value as int64
	// bits, or a float kind's value as float64 bits.
	bits uint64
}

// SampleAt returns sample i of r (packed RGB as its 0xRRGGBB value, of
// kind RGB). It is meant for statistics and tests, not for hot loops.
func (r *Raster) SampleAt(i int) SampleValue {
	switch d := r.Data.(type) {
	case []uint8:
		return SampleValue{Uint8, uint64(d[i])}
	case []uint16:
		return SampleValue{Uint16, uint64(d[i])}
	case []uint32:
		if r.Kind == RGB {
			return SampleValue{RGB, uint64(d[i])}
		}
		return SampleValue{Uint32, uint64(d[i])}
	case []uint64:
		return SampleValue{Uint64, d[i]}
	case []int8:
		return SampleValue{Int8, uint64(int64(d[i]))}
	case []int16:
		return SampleValue{Int16, uint64(int64(d[i]))}
	case []int32:
		return SampleValue{Int32, uint64(int64(d[i]))}
	case []int64:
		return SampleValue{Int64, uint64(d[i])}
	case []float32:
		return SampleValue{Float32, math.Float64bits(float64(d[i]))}
	case []float64:
		return SampleValue{Float64, math.Float64bits(d[i])}
	}
	return SampleValue{}
}

// Float returns the sample as a float64, rounded for 64-bit integers
// beyond 2^53 (NaN for the zero SampleValue).
func (v SampleValue) Float() float64 {
	switch v.Kind {
	case Uint8, Uint16, Uint32, Uint64, RGB:
		return float64(v.bits)
	case Int8, Int16, Int32, Int64:
		return float64(int64(v.bits))
	case Float32, Float64:
		return math.Float64frombits(v.bits)
	}
	return math.NaN()
}

// AppendText appends the sample as text: integer kinds (and packed RGB)
// as decimal integers, every digit kept; float kinds as the shortest
// decimal that reads back as the same float32 or float64
// (strconv.FormatFloat with format 'g' and precision -1). It fails for
// the zero SampleValue.
func (v SampleValue) AppendText(b []byte) ([]byte, error) {
	switch v.Kind {
	case Uint8, Uint16, Uint32, Uint64, RGB:
		return strconv.AppendUint(b, v.bits, 10), nil
	case Int8, Int16, Int32, Int64:
		return strconv.AppendInt(b, int64(v.bits), 10), nil
	case Float32:
		return strconv.AppendFloat(b, math.Float64frombits(v.bits), 'g', -1, 32), nil
	case Float64:
		return strconv.AppendFloat(b, math.Float64frombits(v.bits), 'g', -1, 64), nil
	}
	return b, fmt.Errorf("imagegraph: no sample of kind %v", v.Kind)
}

// String returns the sample as AppendText writes it ("?" for the zero
// SampleValue).
func (v SampleValue) String() string {
	b, err := v.AppendText(nil)
	if err != nil {
		return "?"
	}
	return string(b)
}

// MarshalJSON returns the sample as a JSON number: integers with every
// digit, floats as encoding/json writes a float32 or float64 (so NaN and
// infinities fail, as they do there).
func (v SampleValue) MarshalJSON() ([]byte, error) {
	switch v.Kind {
	case Float32:
		return json.Marshal(float32(math.Float64frombits(v.bits)))
	case Float64:
		return json.Marshal(math.Float64frombits(v.bits))
	}
	return v.AppendText(nil)
}
