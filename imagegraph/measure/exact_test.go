package measure

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// TestExactComponent: components made from exact sums, taken by a plain
// loop with the samples quantized to 2^-58 of the largest, and contacts
// from face counts are the naive oracle's measurements.
func TestExactComponent(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, sh := range [][4]int{{31, 17, 1, 9}, {13, 11, 7, 20}} {
		w, h, d, count := sh[0], sh[1], sh[2], sh[3]
		for _, kind := range []imagegraph.SampleKind{imagegraph.Uint8, imagegraph.Int16, imagegraph.Float32, imagegraph.Float64} {
			labels := randomLabels[uint32](rng, w, h, d, count, 0.6)
			opt := Options{Intensity: randomIntensity(rng, kind, w, h, d), Slope: 0.5, Inter: -3, Spacing: [3]float64{0.7, 1, 2.5}, Surface: true, Contacts: true}
			if err := CheckOptions(w, h, d, &opt); err != nil {
				t.Fatal(err)
			}
			want := naive(labels, w, h, d, count, opt)
			want.First = nil // components and contacts only
			ex, faces := exactOracle(labels, w, h, d, count, opt)
			got := &Table{Components: make([]Component, count), Contacts: []Contact{}}
			for k := range count {
				got.Components[k] = ex[k+1].Component(opt, d > 1)
			}
			for _, c := range want.Contacts {
				got.Contacts = append(got.Contacts, NewContact(c.A, c.B, *faces[[2]uint32{c.A, c.B}], opt.Spacing, d > 1))
			}
			if len(faces) != len(want.Contacts) {
				t.Errorf("%v %v: %d contacts, want %d", sh, kind, len(faces), len(want.Contacts))
			}
			if err := compareTables(got, want, 1e-9); err != nil {
				t.Errorf("%v %v: %v", sh, kind, err)
			}
		}
	}
}

func TestCheckOptions(t *testing.T) {
	for _, opt := range []Options{{Spacing: [3]float64{1, -1, 1}}, {Slope: math.NaN()}, {Threads: -1}} {
		if err := CheckOptions(4, 3, 2, &opt); err == nil {
			t.Errorf("%+v: no error", opt)
		}
	}
	opt := Options{Spacing: [3]float64{0, 2, 0}}
	if err := CheckOptions(4, 3, 2, &opt); err != nil || opt.Spacing != [3]float64{1, 2, 1} || opt.Slope != 1 {
		t.Errorf("%v: spacing %v, slope %v", err, opt.Spacing, opt.Slope)
	}
}

// TestWords: the integers of fixed-width words are those of their hex
// digits, less 2^(64·len) for a negative two's complement.
func TestWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct {
		name string
		ws   []uint64
	}{
		{"none", nil},
		{"five", []uint64{5, 0}},
		{"minus one", []uint64{math.MaxUint64, math.MaxUint64}},
		{"two to the 64", []uint64{0, 1}},
		{"least 128", []uint64{0, 1 << 63}},
		{"greatest 128", []uint64{math.MaxUint64, 1<<63 - 1}},
		{"random 192", []uint64{rng.Uint64(), rng.Uint64(), rng.Uint64() | 1<<63}},
		{"random 64", []uint64{rng.Uint64() | 1<<63}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hex := "0"
			for i := len(tc.ws) - 1; i >= 0; i-- {
				hex += fmt.Sprintf("%016x", tc.ws[i])
			}
			want, _ := new(big.Int).SetString(hex, 16)
			if got := UintWords(tc.ws...); got.Cmp(want) != 0 {
				t.Errorf("UintWords(%#x) = %v, want %v", tc.ws, got, want)
			}
			if len(tc.ws) > 0 && tc.ws[len(tc.ws)-1]>>63 != 0 {
				want.Sub(want, new(big.Int).Lsh(big.NewInt(1), uint(64*len(tc.ws))))
			}
			if got := IntWords(tc.ws...); got.Cmp(want) != 0 {
				t.Errorf("IntWords(%#x) = %v, want %v", tc.ws, got, want)
			}
		})
	}
}

// exactOracle returns the exact sums of every label of labels (index 0 the
// background's), taken by a plain loop over the voxels with the samples
// quantized to 2^-58 of the largest |value| and summed as big integers,
// and the faces shared by each pair of touching labels.
func exactOracle(labels []uint32, w, h, d, count int, opt Options) ([]Exact, map[[2]uint32]*[3]int64) {
	value := func(i int) float64 {
		if opt.Slope == 1 && opt.Inter == 0 { // unscaled: -0 stays -0
			return opt.Intensity.Value(i)
		}
		return float64(opt.Intensity.Value(i)*opt.Slope) + opt.Inter
	}
	largest := 0.0
	for i := range labels {
		largest = max(largest, math.Abs(value(i)))
	}
	_, e := math.Frexp(largest)
	scale := 58 - e
	ex := make([]Exact, count+1)
	for k := range ex {
		ex[k] = Exact{Scale: scale, Q: new(big.Int), Q2: new(big.Int), QX: [3]*big.Int{new(big.Int), new(big.Int), new(big.Int)},
			Min: [3]int{math.MaxInt, math.MaxInt, math.MaxInt}, Max: [3]int{-1, -1, -1}, IMin: math.Inf(1), IMax: math.Inf(-1)}
	}
	at := func(x, y, z int) uint32 {
		if x < 0 || y < 0 || z < 0 || x >= w || y >= h || z >= d {
			return math.MaxUint32
		}
		return labels[(z*h+y)*w+x]
	}
	faces := map[[2]uint32]*[3]int64{}
	for i, l := range labels {
		if l == 0 {
			continue
		}
		p := [3]int{i % w, i / w % h, i / (w * h)}
		x := &ex[l]
		x.Size++
		v := value(i)
		x.IMin, x.IMax = min(x.IMin, v), max(x.IMax, v)
		q := big.NewInt(int64(math.RoundToEven(math.Ldexp(v, scale))))
		x.Q.Add(x.Q, q)
		x.Q2.Add(x.Q2, new(big.Int).Mul(q, q))
		for a := range 3 {
			x.Sum[a] += int64(p[a])
			x.Min[a], x.Max[a] = min(x.Min[a], p[a]), max(x.Max[a], p[a])
			x.QX[a].Add(x.QX[a], new(big.Int).Mul(q, big.NewInt(int64(p[a]))))
			if a == 2 && d == 1 {
				continue
			}
			for _, s := range []int{-1, 1} {
				n := p
				n[a] += s
				if b := at(n[0], n[1], n[2]); b != l {
					x.Exposed[a]++
					if s == 1 && b != 0 && b != math.MaxUint32 {
						k := [2]uint32{min(l, b), max(l, b)}
						if faces[k] == nil {
							faces[k] = new([3]int64)
						}
						faces[k][a]++
					}
				}
			}
		}
	}
	return ex, faces
}
