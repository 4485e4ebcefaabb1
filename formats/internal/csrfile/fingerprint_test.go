package csrfile

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMulModMatchesBig checks the field product against math/big.
func TestMulModMatchesBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	p := big.NewInt(fpP)
	vals := []uint64{0, 1, 2, fpP - 1, fpP - 2, 1 << 60, 1<<61 - 3}
	for range 200 {
		vals = append(vals, rng.Uint64N(fpP))
	}
	for _, a := range vals {
		for _, b := range vals[:20] {
			want := new(big.Int).Mul(new(big.Int).SetUint64(a), new(big.Int).SetUint64(b))
			want.Mod(want, p)
			if got := mulMod(a, b); got != want.Uint64() {
				t.Fatalf("mulMod(%d, %d) = %d, want %v", a, b, got, want)
			}
			wantSub := (a + fpP - b%fpP) % fpP
			if b < fpP {
				if got := subMod(a, b); got != wantSub {
					t.Fatalf("subMod(%d, %d) = %d, want %d", a, b, got, wantSub)
				}
			}
		}
	}
}

// TestPairElementsAreDistinct checks that the pair (lo, hi) maps to
// hi(hi-1)/2 + lo: increasing in (hi, lo), hence distinct, and below the
// prime for the largest IDs a graph can have.
func TestPairElementsAreDistinct(t *testing.T) {
	const top = math.MaxInt32 - 2 // the largest vertex ID
	pairs := [][2]uint32{{0, 1}, {0, 2}, {1, 2}, {0, 3}, {2, 3}, {top - 1, top}, {0, top}}
	prev := int64(-1)
	for _, pr := range pairs[:5] {
		e := int64(tri(pr[1]) + uint64(pr[0]))
		if e <= prev {
			t.Fatalf("pair %v: element %d after %d", pr, e, prev)
		}
		prev = e
	}
	if e := tri(top) + top - 1; e >= fpP {
		t.Fatalf("largest pair's element %d is not below the prime", e)
	}
	if tri(top)+top-1 >= tri(top+1) {
		t.Fatal("the elements of hi and hi+1 overlap")
	}
}

// TestFingerprintLargeIDs checks the fingerprint on arcs between IDs near
// the largest: a symmetric set balances; dropping or moving one arc does
// not.
func TestFingerprintLargeIDs(t *testing.T) {
	const top = math.MaxInt32 - 2
	rng := rand.New(rand.NewPCG(7, 8))
	adj := map[int][]int32{}
	for range 300 {
		a, b := top-rng.Int32N(50), top-rng.Int32N(1<<30)
		adj[int(a)] = append(adj[int(a)], b)
		adj[int(b)] = append(adj[int(b)], a)
	}
	keys := newFPKeys()
	fp := func(adj map[int][]int32) fingerprint {
		f := unitFingerprint()
		for v, a := range adj {
			f.vertex(&keys, v, slices.Sorted(slices.Values(a)))
		}
		return f
	}
	if !fp(adj).balanced() {
		t.Fatal("symmetric arcs do not balance")
	}
	for v, a := range adj {
		if a[0] == int32(v) {
			continue
		}
		drop := map[int][]int32{}
		moved := map[int][]int32{}
		for w, b := range adj {
			drop[w], moved[w] = b, b
		}
		drop[v] = a[1:]
		moved[v] = append([]int32{a[0] - 1}, a[1:]...)
		if fp(drop).balanced() {
			t.Fatalf("dropping %d->%d still balances", v, a[0])
		}
		if a[0]-1 != int32(v) && fp(moved).balanced() {
			t.Fatalf("moving %d->%d still balances", v, a[0])
		}
		break
	}
}
