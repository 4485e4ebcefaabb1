package gen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/cclabel/cclabel/imagegraph"
)

// BlobsRaster returns a binary raster of smooth blobs.
//
// The blobs are uniform noise blurred three times with a box of the given
// radius, thresholded so that about density of the pixels are foreground.
// The work runs on all cores; the raster is the same for every number of
// them.
func BlobsRaster(width, height, depth int, density float64, radius int, seed uint64) (*imagegraph.Raster, error) {
	return blobsRaster(width, height, depth, density, radius, seed, nil)
}

// blobsPasses is the number of passes of blobsRaster over its samples,
// for its progress: the noise, three blurs along each axis (two in 2D),
// the two passes that find the threshold and the thresholding.
func blobsPasses(depth int) int {
	if depth > 1 {
		return 1 + 3*3 + 3
	}
	return 1 + 3*2 + 3
}

// blobsRaster is [BlobsRaster] telling p (which may be nil) its passes.
func blobsRaster(width, height, depth int, density float64, radius int, seed uint64, p *progress) (*imagegraph.Raster, error) {
	n, err := checkSynthetic(width, height, depth, density)
	if err != nil {
		return nil, err
	}
	if radius < 1 {
		return nil, fmt.Errorf("gen: blob radius %d must be at least 1", radius)
	}
	field := make([]float32, n)
	fillChunks(n, seed, func(rng *rand.Rand, lo, hi int) {
		for i := lo; i < hi; i++ {
			field[i] = rng.Float32()
		}
		p.add(hi - lo)
	})
	b := blur{field: field, w: width, h: height, d: depth, radius: radius, p: p}
	for range 3 {
		b.alongX()
		b.across(height, width, depth, width*height) // y: in each plane
		if depth > 1 {
			b.across(depth, width*height, height, width) // z: from each row of the first plane
		}
	}
	// The sample of rank n*(1-density) in increasing order is the
	// threshold (the one above the others when density is 0).
	cut := rankFloat32(field, min(n-1, int(float64(n)*(1-density))), p)
	data := make([]uint8, n)
	all := density >= 1
	forChunks(n, func(lo, hi int) {
		for i, v := range field[lo:hi] {
			if v > cut || all {
				data[lo+i] = 1
			}
		}
		p.add(hi - lo)
	})
	return imagegraph.NewRaster(width, height, depth, data)
}

// blur replaces the lines of a field along each axis by their moving
// averages over 2*radius+1 samples (clamped at the ends), on all cores.
// Every line's sums are taken in the same order on any number of cores
// (the order of the serial definition: the window's samples from first
// to last, then one sample in and one out at each step), so the floats
// come out the same.
type blur struct {
	field   []float32
	w, h, d int
	radius  int
	p       *progress
}

// blurColumns is the most columns the lines across rows or planes are
// blurred a block at a time: their samples and sums stay in cache.
const blurColumns = 512

// alongX blurs every row.
func (b blur) alongX() {
	rows := b.h * b.d
	per := max(1, chunkSize/b.w) // rows a task
	tasks := (rows + per - 1) / per
	each(tasks, func() []float32 { return make([]float32, b.w) }, func(line []float32, t int) {
		for r := t * per; r < min((t+1)*per, rows); r++ {
			row := b.field[r*b.w : (r+1)*b.w]
			copy(line, row)
			b.blurLine(row, line)
		}
		b.p.add((min((t+1)*per, rows) - t*per) * b.w)
	}, nil)
}

// across blurs the lines of length samples that are stride samples
// apart: along y (stride a row) or along z (stride a plane). The lines
// come in groups, the first sample of group g at g*step: the planes (y)
// or the rows of the first plane (z), whose columns start the lines. Each
// task blurs a block of up to blurColumns columns of a group.
func (b blur) across(length, stride, groups, step int) {
	blocks := (b.w + blurColumns - 1) / blurColumns
	width := min(b.w, blurColumns)
	each(groups*blocks, func() []float32 { return make([]float32, (length+1)*width) }, func(scratch []float32, t int) {
		g, x0 := t/blocks, t%blocks*blurColumns
		cols := min(blurColumns, b.w-x0)
		lines := scratch[:length*cols] // sample i of column x at i*cols+x
		sums := scratch[length*cols : (length+1)*cols]
		start := g*step + x0
		for i := range length {
			copy(lines[i*cols:(i+1)*cols], b.field[start+i*stride:])
		}
		b.blurBlock(start, stride, lines, sums, cols, length)
		b.p.add(length * cols)
	}, nil)
}

// blurLine writes into dst the moving averages of src, a copy of the
// line.
func (b blur) blurLine(dst, src []float32) {
	n := len(src)
	div := float32(2*b.radius + 1)
	var sum float32
	for i := -b.radius; i <= b.radius; i++ {
		sum += src[clampIndex(i, n)]
	}
	for i := range n {
		dst[i] = sum / div
		sum += src[clampIndex(i+b.radius+1, n)] - src[clampIndex(i-b.radius, n)]
	}
}

// blurBlock blurs cols lines of length samples at once: their copies
// are lines (sample i of column x at i*cols+x), their running sums sums,
// and the averages go to the field from start on, samples stride apart.
// Each column's sums are blurLine's.
func (b blur) blurBlock(start, stride int, lines, sums []float32, cols, length int) {
	div := float32(2*b.radius + 1)
	clear(sums)
	for i := -b.radius; i <= b.radius; i++ {
		src := lines[clampIndex(i, length)*cols:][:cols]
		for x, v := range src {
			sums[x] += v
		}
	}
	for i := range length {
		dst := b.field[start+i*stride:][:cols]
		for x, s := range sums {
			dst[x] = s / div
		}
		in := lines[clampIndex(i+b.radius+1, length)*cols:][:cols]
		out := lines[clampIndex(i-b.radius, length)*cols:][:cols]
		for x := range sums {
			sums[x] += in[x] - out[x]
		}
	}
}

func clampIndex(i, n int) int { return min(max(i, 0), n-1) }

// rankFloat32 returns the sample of rank k (0 the smallest) of s, which
// holds no NaN: the value s[k] would hold once sorted. It counts the
// samples by the high, then the low half of an order-preserving key of
// their bits (radix selection: two passes over s, on all cores, told to
// p), instead of sorting a copy.
func rankFloat32(s []float32, k int, p *progress) float32 {
	var high, low [1 << 16]int64
	countKeys(s, &high, p, func(key uint32) (uint32, bool) { return key >> 16, true })
	hi, rank := bucketOf(&high, int64(k))
	countKeys(s, &low, p, func(key uint32) (uint32, bool) { return key & 0xffff, key>>16 == hi })
	lo, _ := bucketOf(&low, rank)
	return floatOfKey(hi<<16 | lo)
}

// countKeys counts, in counts, the buckets pick gives the keys of s (those
// it takes), on all cores.
func countKeys(s []float32, counts *[1 << 16]int64, p *progress, pick func(key uint32) (uint32, bool)) {
	var mu sync.Mutex
	// Each goroutine counts at most len(s) < 2^32 samples.
	each((len(s)+chunkSize-1)/chunkSize, func() []uint32 { return make([]uint32, 1<<16) }, func(local []uint32, t int) {
		lo, hi := t*chunkSize, min((t+1)*chunkSize, len(s))
		for _, v := range s[lo:hi] {
			if b, ok := pick(keyOfFloat(v)); ok {
				local[b]++
			}
		}
		p.add(hi - lo)
	}, func(local []uint32) {
		mu.Lock()
		defer mu.Unlock()
		for b, c := range local {
			counts[b] += int64(c)
		}
	})
}

// bucketOf returns the bucket holding the sample of rank k over the
// buckets' counts, and its rank within the bucket.
func bucketOf(counts *[1 << 16]int64, k int64) (uint32, int64) {
	for b, c := range counts {
		if k < c {
			return uint32(b), k
		}
		k -= c
	}
	return 1<<16 - 1, 0 // not reached: k is below the sum
}

// keyOfFloat maps a float's bits to a key that orders like the floats
// (-0 just before +0): negative floats have their bits inverted, the
// others their sign bit set.
func keyOfFloat(v float32) uint32 {
	bits := math.Float32bits(v)
	if bits>>31 != 0 {
		return ^bits
	}
	return bits | 1<<31
}

// floatOfKey inverts keyOfFloat.
func floatOfKey(key uint32) float32 {
	if key>>31 != 0 {
		return math.Float32frombits(key &^ (1 << 31))
	}
	return math.Float32frombits(^key)
}

// each runs body on tasks 0..tasks-1, handed out in order to GOMAXPROCS
// goroutines, each with its own scratch from newScratch, which it gives
// to done (when not nil) once there are no tasks left.
func each[S any](tasks int, newScratch func() S, body func(scratch S, task int), done func(scratch S)) {
	workers := min(runtime.GOMAXPROCS(0), tasks)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			scratch := newScratch()
			for t := int(next.Add(1) - 1); t < tasks; t = int(next.Add(1) - 1) {
				body(scratch, t)
			}
			if done != nil {
				done(scratch)
			}
		})
	}
	wg.Wait()
}

// forChunks runs body on the chunks of chunkSize samples of [0, n) on all
// cores.
func forChunks(n int, body func(lo, hi int)) {
	each((n+chunkSize-1)/chunkSize, func() struct{} { return struct{}{} }, func(_ struct{}, t int) {
		body(t*chunkSize, min((t+1)*chunkSize, n))
	}, nil)
}
