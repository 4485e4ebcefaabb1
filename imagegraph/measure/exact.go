package measure

import (
	"math"
	"math/big"
	"math/bits"
)

// Exact holds one component's sums as integers, from which [Exact.Component]
// gives its measurements by the definitions of [Compute]. [Compute] and a
// device that measures with atomics (package cuda) sum integers, so that their
// tables depend neither on the order of the additions nor on the backend.
type Exact struct {
	// Size is the number of voxels; Sum the sums of their x, y and z.
	Size int64
	Sum  [3]int64
	// Min and Max are the inclusive bounding box, as x, y, z.
	Min, Max [3]int
	// Exposed counts the faces across x, y and z whose neighbour is not
	// the component (background, another label or the border).
	Exposed [3]int64

	// The intensity, when measured: each scaled sample v as the integer
	// q = v·2^Scale rounded, Q = Σq, Q2 = Σq², QX = Σq·x, Σq·y, Σq·z;
	// IMin and IMax the least and greatest v.
	Scale      int
	Q, Q2      *big.Int
	QX         [3]*big.Int
	IMin, IMax float64
}

// QuantBits bounds the quantized intensities of [Exact]: |q| <= 2^QuantBits,
// which keeps Σq and Σq·x of up to 2^38 voxels of coordinates below 2^31
// inside 128 bits, and Σq² inside 192.
const QuantBits = 58

// QuantScale returns the scale of [Exact] for intensities whose largest
// magnitude is absmax: the s with absmax < 2^(QuantBits-s) <= 2·absmax
// (QuantBits for absmax 0), so that every q = v·2^s rounded to the nearest
// integer, ties to even, has |q| <= 2^QuantBits. It reports false for a NaN
// or infinite absmax, which has no such scale.
func QuantScale(absmax float64) (int, bool) {
	if math.IsNaN(absmax) || math.IsInf(absmax, 0) {
		return 0, false
	}
	_, e := math.Frexp(math.Abs(absmax)) // |absmax| < 2^e
	return QuantBits - e, true
}

// CheckOptions checks opt for w x h x d labels as [Compute] does, and sets
// its zero spacings and slope to 1.
func CheckOptions(w, h, d int, opt *Options) error {
	return check(w*h*d, w, h, d, 0, opt)
}

// Component returns the measurements of e for a labeling of depth > 1
// when is3D, with opt's spacing, its surface when opt.Surface and its
// intensity statistics when opt.Intensity is set (opt checked by
// [CheckOptions]). It is [Compute]'s component bit for bit, for the
// scale of [QuantScale]; the intensity statistics are the exact values of
// the quantized samples, rounded once.
func (e *Exact) Component(opt Options, is3D bool) Component {
	return e.component(opt, is3D, nil, new(bigScratch))
}

// bigScratch holds the big numbers that [Exact.Component] reuses from one
// component to the next.
type bigScratch struct {
	count, one, v, t big.Int
	x, y             big.Float
}

// component is [Exact.Component] with z's numbers, from the sums in fixed
// width where sums is not nil (e's big numbers then unset).
func (e *Exact) component(opt Options, is3D bool, sums *exactSums, z *bigScratch) Component {
	c := Component{Size: e.Size, Min: e.Min, Max: e.Max}
	if e.Size == 0 {
		c.Min = [3]int{math.MaxInt, math.MaxInt, math.MaxInt}
		c.Max = [3]int{-1, -1, -1}
		return c
	}
	n := float64(e.Size)
	for a := range 3 {
		c.Centroid[a] = float64(e.Sum[a]) / n
	}
	sx, sy, sz := opt.Spacing[0], opt.Spacing[1], opt.Spacing[2]
	if is3D {
		c.EqDiameter = math.Cbrt(6 * (n * sx * sy * sz) / math.Pi)
	} else {
		c.EqDiameter = math.Sqrt(4 * (n * sx * sy) / math.Pi)
	}
	if opt.Surface {
		area := faceAreas(opt.Spacing, is3D)
		c.Surface = float64(e.Exposed[0])*area[0] + float64(e.Exposed[1])*area[1]
		if is3D {
			c.Surface += float64(e.Exposed[2]) * area[2]
		}
	}
	if opt.Intensity != nil {
		c.IMin, c.IMax = e.IMin, e.IMax
		if sums == nil {
			sums = e.words()
		}
		if sums != nil && sums.stats(&c, e.Size, e.Scale) {
			return c
		}
		if e.Q == nil && sums != nil {
			e.Q, e.Q2 = sums.q.big(), UintWords(sums.q2[:]...)
			e.QX = [3]*big.Int{sums.qx[0].big(), sums.qx[1].big(), sums.qx[2].big()}
		}
		count := z.count.SetInt64(e.Size)
		c.Sum = z.ratio(e.Q, z.one.SetInt64(1), -e.Scale)
		c.Mean = z.ratio(e.Q, count, -e.Scale)
		// n²·variance(q) = n·Σq² − (Σq)², exactly.
		v := z.v.Mul(count, e.Q2)
		v.Sub(v, z.t.Mul(e.Q, e.Q))
		c.Std = math.Sqrt(z.ratio(v, z.t.Mul(count, count), -2*e.Scale))
		for a := range 3 {
			switch w := e.QX[a]; {
			case e.Q.Sign() != 0:
				c.WCentroid[a] = z.ratio(w, e.Q, 0)
			case w.Sign() == 0:
				c.WCentroid[a] = math.NaN()
			default:
				c.WCentroid[a] = math.Inf(w.Sign())
			}
		}
	}
	return c
}

// words returns e's intensity sums in fixed width, or nil where they do
// not fit it.
func (e *Exact) words() *exactSums {
	var s exactSums
	var ok bool
	if s.q, ok = signedWords(e.Q); !ok {
		return nil
	}
	for a := range 3 {
		if s.qx[a], ok = signedWords(e.QX[a]); !ok {
			return nil
		}
	}
	if bits.UintSize != 64 || e.Q2 == nil || e.Q2.Sign() < 0 || e.Q2.BitLen() > 192 {
		return nil
	}
	for i, w := range e.Q2.Bits() {
		s.q2[i] = uint64(w)
	}
	return &s
}

// signedWords returns x as a 128-bit two's complement integer, or false
// where it does not fit.
func signedWords(x *big.Int) (wide128, bool) {
	if bits.UintSize != 64 || x == nil || x.BitLen() > 127 {
		return wide128{}, false
	}
	var w [2]uint64
	for i, b := range x.Bits() {
		w[i] = uint64(b)
	}
	a := wide128{w[0], w[1]}
	if x.Sign() < 0 {
		a = wide128{}
		a.sub(wide128{w[0], w[1]})
	}
	return a, true
}

// NewContact returns the contact of labels a < b that share faces[k]
// faces across axis k, their area weighed by spacing as [Compute] weighs it.
func NewContact(a, b uint32, faces [3]int64, spacing [3]float64, is3D bool) Contact {
	area := faceAreas(spacing, is3D)
	return Contact{A: a, B: b, Faces: faces[0] + faces[1] + faces[2],
		Area: float64(faces[0])*area[0] + float64(faces[1])*area[1] + float64(faces[2])*area[2]}
}

// UintWords returns the unsigned integer of the 64-bit words ws, least
// significant first: a sum of an [Exact] as a device holds it in words of
// fixed width.
func UintWords(ws ...uint64) *big.Int {
	x := new(big.Int)
	if bits.UintSize == 64 {
		nat := make([]big.Word, len(ws))
		for i, w := range ws {
			nat[i] = big.Word(w)
		}
		return x.SetBits(nat)
	}
	for i := len(ws) - 1; i >= 0; i-- {
		x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(ws[i]))
	}
	return x
}

// IntWords returns the two's complement integer of the 64-bit words ws,
// least significant first, as [UintWords] reads them.
func IntWords(ws ...uint64) *big.Int {
	if len(ws) == 0 || ws[len(ws)-1]>>63 == 0 {
		return UintWords(ws...)
	}
	// -x for the complement x of ws plus one.
	neg := make([]uint64, len(ws))
	c := uint64(1)
	for i, w := range ws {
		neg[i], c = bits.Add64(^w, 0, c)
	}
	x := UintWords(neg...)
	return x.Neg(x)
}

// ratio returns a/b·2^exp rounded to a float64 (b not zero): the
// quotient rounded to 256 bits, then to 53 (which for the denominators of
// [Exact.Component] is the quotient rounded once).
func (z *bigScratch) ratio(a, b *big.Int, exp int) float64 {
	const prec = 256
	x := z.x.SetPrec(prec).SetMode(big.ToNearestEven).SetInt(a)
	x.Quo(x, z.y.SetPrec(prec).SetMode(big.ToNearestEven).SetInt(b))
	f, _ := x.SetMantExp(x, exp).Float64()
	return f
}
