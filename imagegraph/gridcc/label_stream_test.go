package gridcc_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// samplesFeed releases a raster's samples a few rows at a time from its
// own goroutine; fail makes it fail once half are released.
type samplesFeed struct {
	mu     sync.Mutex
	cond   *sync.Cond
	ready  int
	failed bool
	done   chan struct{}
}

var errFeed = errors.New("feed failed")

func newSamplesFeed(n, step int, fail bool) *samplesFeed {
	f := &samplesFeed{done: make(chan struct{})}
	f.cond = sync.NewCond(&f.mu)
	go func() {
		defer close(f.done)
		for {
			f.mu.Lock()
			if fail && f.ready >= n/2 {
				f.failed = true
			} else {
				f.ready = min(n, f.ready+step)
			}
			end := f.failed || f.ready == n
			f.cond.Broadcast()
			f.mu.Unlock()
			if end {
				return
			}
		}
	}()
	return f
}

func (f *samplesFeed) wait(n int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for f.ready < n && !f.failed {
		f.cond.Wait()
	}
	if f.ready < n {
		return errFeed
	}
	return nil
}

// TestLabelStreamedMatchesLabel checks LabelStreamed against Label for
// every rule, connectivity, a few thread and band counts, on awkward
// shapes and sample types (wide keys included).
func TestLabelStreamedMatchesLabel(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	shapes := [][3]int{{1, 1, 1}, {61, 1, 1}, {65, 33, 1}, {1, 1, 37}, {2, 129, 33}, {13, 11, 7}, {65, 7, 9}, {37, 1, 3}}
	for _, s := range shapes {
		conns := []int{4, 8}
		if s[2] > 1 {
			conns = []int{6, 18, 26}
		}
		rasters := modeRasters(t, s[0], s[1], s[2], rng)
		// One foreground value until the last voxel, which holds a second:
		// the multilabel rule is labeled as binary, then again as keys.
		late := make([]uint8, s[0]*s[1]*s[2])
		for i := range late {
			late[i] = uint8(rng.IntN(2))
		}
		late[len(late)-1] = 2
		r, err := imagegraph.NewRaster(s[0], s[1], s[2], late)
		if err != nil {
			t.Fatal(err)
		}
		rasters["late"] = r
		for name, r := range rasters {
			for _, rule := range modeRules {
				for _, conn := range conns {
					want, err := gridcc.Label(r, rule, gridcc.Options{Connectivity: conn, Threads: 1}, nil)
					if err != nil {
						t.Fatal(err)
					}
					for _, threads := range []int{1, 2, 3} {
						for _, bands := range []int{0, 5} {
							feed := newSamplesFeed(r.Len(), 1+rng.IntN(2*s[0]), false)
							got, err := gridcc.LabelStreamed(r, rule, gridcc.Options{Connectivity: conn, Threads: threads},
								make([]uint32, r.Len()), bands, feed.wait)
							<-feed.done
							if err != nil {
								t.Fatal(err)
							}
							if got.Count != want.Count || !slices.Equal(got.Data, want.Data) {
								t.Fatalf("%v %s %v c%d threads %d bands %d: %d components, want %d", s, name, rule, conn, threads, bands, got.Count, want.Count)
							}
						}
					}
				}
			}
		}
	}
}

// TestLabelStreamedFails checks that a wait that fails is the labeling's
// error, and that the label array must fit.
func TestLabelStreamedFails(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	for name, r := range modeRasters(t, 33, 9, 40, rng) {
		for _, rule := range modeRules {
			feed := newSamplesFeed(r.Len(), 50, true)
			_, err := gridcc.LabelStreamed(r, rule, gridcc.Options{Connectivity: 26, Threads: 2}, make([]uint32, r.Len()), 6, feed.wait)
			<-feed.done
			if !errors.Is(err, errFeed) {
				t.Fatalf("%s %v: %v, want the feed's error", name, rule, err)
			}
		}
		if _, err := gridcc.LabelStreamed(r, modeRules[0], gridcc.Options{}, nil, 0, nil); err == nil {
			t.Fatalf("%s: no label array: no error", name)
		}
	}
}

// TestLabelProgress: Label told to report its progress gives the labels
// it gives without, and reports every step of both passes.
func TestLabelProgress(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	for _, s := range [][3]int{{1, 1, 1}, {65, 33, 1}, {13, 11, 7}, {40, 30, 20}} {
		conn := 8
		if s[2] > 1 {
			conn = 26
		}
		for name, r := range modeRasters(t, s[0], s[1], s[2], rng) {
			for _, rule := range modeRules {
				want, err := gridcc.Label(r, rule, gridcc.Options{Connectivity: conn, Threads: 1}, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, threads := range []int{1, 2, 4} {
					var mu sync.Mutex
					most, total := 0, 0
					progress := func(done, all int) {
						mu.Lock()
						defer mu.Unlock()
						most, total = max(most, done), all
					}
					got, err := gridcc.Label(r, rule, gridcc.Options{Connectivity: conn, Threads: threads, Progress: progress}, nil)
					if err != nil {
						t.Fatal(err)
					}
					if got.Count != want.Count || !slices.Equal(got.Data, want.Data) {
						t.Fatalf("%v %s %v threads %d: %d components, want %d", s, name, rule, threads, got.Count, want.Count)
					}
					if total == 0 || most != total {
						t.Errorf("%v %s %v threads %d: progress %d of %d", s, name, rule, threads, most, total)
					}
				}
			}
		}
	}
}
