package incremental_test

import (
	"math/rand/v2"
	"testing"

	"github.com/cclabel/cclabel/ecl/incremental"
)

// BenchmarkInsert inserts 4 batches of 2^18 uniformly random edges into
// 2^20 isolated vertices per iteration (the structure's creation
// included) and reports edges/s. TestMeasureInsert (CCLABEL_MEASURE=1)
// measures the large case, batches of 10^6 and 10^7 into 2^24 vertices.
func BenchmarkInsert(b *testing.B) {
	const n, batch, batches = 1 << 20, 1 << 18, 4
	rng := rand.New(rand.NewPCG(1, 1))
	us, vs := make([]int32, batch*batches), make([]int32, batch*batches)
	for i := range us {
		us[i], vs[i] = int32(rng.IntN(n)), int32(rng.IntN(n))
	}
	for b.Loop() {
		uf, err := incremental.New(n, 0)
		if err != nil {
			b.Fatal(err)
		}
		for k := range batches {
			if err := uf.Insert(us[k*batch:(k+1)*batch], vs[k*batch:(k+1)*batch]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(us))*float64(b.N)/b.Elapsed().Seconds(), "edges/s")
}
