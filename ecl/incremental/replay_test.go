package incremental_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/ecl/incremental"
)

func TestReplayMatchesBFS(t *testing.T) {
	for seed := range 10 {
		rng := rand.New(rand.NewPCG(uint64(seed), 8))
		n := 1 + rng.IntN(300)
		var in, want strings.Builder
		var us, vs []int32
		for range 1 + rng.IntN(8) {
			for range rng.IntN(n) {
				a, b := rng.IntN(n), rng.IntN(n)
				us, vs = append(us, int32(a)), append(vs, int32(b))
				fmt.Fprintf(&in, "i %d %d\n", a, b)
			}
			rep := bfsReps(t, n, us, vs)
			for range 1 + rng.IntN(10) {
				a, b := rng.IntN(n), rng.IntN(n)
				if rng.IntN(3) == 0 {
					fmt.Fprintf(&in, "  c %d # comment\n\n", a)
					fmt.Fprintf(&want, "%d\n", rep[a])
					continue
				}
				fmt.Fprintf(&in, "q\t%d %d\n", a, b)
				fmt.Fprintf(&want, "%d\n", map[bool]int{false: 0, true: 1}[rep[a] == rep[b]])
			}
		}
		uf, err := incremental.New(n, 1+seed%3)
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		stats, err := incremental.Replay(strings.NewReader(in.String()), uf, &out,
			incremental.ReplayOptions{MaxBatch: 1 + rng.IntN(50)})
		if err != nil {
			t.Fatal(err)
		}
		if out.String() != want.String() {
			t.Fatalf("seed %d: answers differ from BFS", seed)
		}
		if stats.Inserts != int64(len(us)) || stats.Components != uf.Components() {
			t.Fatalf("seed %d: stats %+v", seed, stats)
		}
	}
}

func TestReplayErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"i 0 1\nx 0 1\n", "line 2: unknown operation"},
		{"# c\n\nq 0 4\n", "line 3: vertex ID 4 is not a vertex"},
		{"q -1 0\n", "line 1: vertex ID -1 is not a vertex"},
		{"i 1\n", `line 1: "i" wants 2 vertex IDs`},
		{"c 1 2\n", `line 1: "c" wants 1 vertex IDs`},
		{"q 1 two\n", `line 1: vertex ID "two": not an integer`},
		{"q 1 2 3 4\n", "line 1: too many fields"},
		{"q 1 99999999999999999999\n", "not an integer"},
	} {
		uf, _ := incremental.New(3, 1)
		_, err := incremental.Replay(strings.NewReader(tc.in), uf, new(strings.Builder), incremental.ReplayOptions{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.want)
		}
	}
}

func ExampleReplay() {
	uf, _ := incremental.New(5, 1)
	updates := `# two insertions, then questions
i 0 1
i 3 4
q 0 1
q 1 3
i 1 4
q 0 3
c 4
`
	var answers strings.Builder
	stats, _ := incremental.Replay(strings.NewReader(updates), uf, &answers, incremental.ReplayOptions{})
	fmt.Print(answers.String())
	fmt.Println(stats.Inserts, stats.Batches, stats.Queries, stats.Components)
	// Output:
	// 1
	// 0
	// 1
	// 0
	// 3 2 4 2
}
