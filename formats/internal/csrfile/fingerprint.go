package csrfile

import (
	"math/bits"
	"math/rand/v2"
)

// The symmetry fingerprint is a polynomial identity test over the field of
// integers modulo the Mersenne prime fpP. An arc between vertices lo < hi
// is the field element e = hi(hi-1)/2 + lo, distinct for distinct pairs of
// IDs below 2^31. The product of (r - e) over the upward arcs equals the
// product over the downward ones, as polynomials in r, exactly when the
// two multisets of pairs are equal. Evaluated at a random r the products of
// two different multisets of d arcs agree with probability at most d/fpP
// (Schwartz–Zippel); fpKeys independent points make it that to the power
// fpKeys: at most 2^-60 for 2^31 arcs.

// fpP is 2^61 - 1, a prime.
const fpP = 1<<61 - 1

// fpKeys is the number of independent evaluation points.
const fpKeys = 2

// fingerprint is the products of a set of arcs' factors at each key,
// upward and downward arcs apart.
type fingerprint struct{ up, down [fpKeys]uint64 }

// newFPKeys draws fresh evaluation points; a caller that cannot see them
// cannot build a graph that fools the test.
func newFPKeys() [fpKeys]uint64 {
	var k [fpKeys]uint64
	for i := range k {
		k[i] = rand.Uint64N(fpP)
	}
	return k
}

// unitFingerprint is the fingerprint of no arcs.
func unitFingerprint() fingerprint {
	var f fingerprint
	for i := range fpKeys {
		f.up[i], f.down[i] = 1, 1
	}
	return f
}

// mulMod returns a·b mod fpP for a, b < fpP.
func mulMod(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	x := (hi<<3 | lo>>61) + lo&fpP
	if x >= fpP {
		x -= fpP
	}
	return x
}

// subMod returns a - b mod fpP for a, b < fpP.
func subMod(a, b uint64) uint64 {
	if a >= b {
		return a - b
	}
	return a + fpP - b
}

// tri returns hi(hi-1)/2, the element of the pair (0, hi).
func tri(hi uint32) uint64 { return uint64(hi) * uint64(hi-1) / 2 }

// merge multiplies g into f.
func (f *fingerprint) merge(g fingerprint) {
	for i := range fpKeys {
		f.up[i] = mulMod(f.up[i], g.up[i])
		f.down[i] = mulMod(f.down[i], g.down[i])
	}
}

// balanced reports whether the upward and downward products agree at every
// key.
func (f fingerprint) balanced() bool { return f.up == f.down }

// vertex multiplies into f the factors of the arcs of v's sorted list adj:
// an arc to a smaller ID u is the pair (u, v), an arc to a larger one the
// pair (v, u); loops count in neither. For a list that is not sorted the
// result is meaningless. The keys' products are independent chains,
// interleaved for the multiplier's latency.
func (f *fingerprint) vertex(keys *[fpKeys]uint64, v int, adj []int32) {
	k := 0
	for k < len(adj) && int(adj[k]) < v {
		k++
	}
	r0, r1 := keys[0], keys[1]
	d0, d1, tv := f.down[0], f.down[1], tri(uint32(v))
	for _, u := range adj[:k] {
		e := tv + uint64(uint32(u))
		d0 = mulMod(d0, subMod(r0, e))
		d1 = mulMod(d1, subMod(r1, e))
	}
	for k < len(adj) && int(adj[k]) == v {
		k++
	}
	u0, u1 := f.up[0], f.up[1]
	for _, u := range adj[k:] {
		e := tri(uint32(u)) + uint64(v)
		u0 = mulMod(u0, subMod(r0, e))
		u1 = mulMod(u1, subMod(r1, e))
	}
	f.down[0], f.down[1], f.up[0], f.up[1] = d0, d1, u0, u1
}
