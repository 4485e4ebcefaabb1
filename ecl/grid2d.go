package ecl

// labelBand2D runs the init and compute phases over the band's rows, in
// order, with plain loads and stores: the band is this goroutine's alone.
func (g *gridLabeler[K]) labelBand2D(b *gridBand) {
	w := g.shape.Width
	prev := make([]K, w)
	cur := make([]K, w)
	roots := 0
	for y := b.first; y < b.end; y++ {
		g.src.Keys(y, cur)
		row := g.labels[y*w : y*w+w]
		base := uint32(y*w) + 1 // index+1 of the row's first pixel
		switch {
		case y == b.first:
			roots += labelFirstRow(cur, row, base)
		case g.conn == 8:
			roots += labelRow8(g.labels, prev, cur, row, base)
		default:
			roots += labelRow4(g.labels, prev, cur, row, base)
		}
		prev, cur = cur, prev
	}
	b.roots = roots
}

// labelFirstRow labels a row without a row above: each pixel points at its
// left neighbour when joined to it. It returns the roots made.
func labelFirstRow[K GridKey](cur []K, row []uint32, base uint32) int {
	roots := 0
	row = row[:len(cur)]
	var left K
	for x, k := range cur {
		v := base + uint32(x)
		switch {
		case k == 0:
			row[x] = 0
		case k == left:
			row[x] = v - 1
		default:
			row[x] = v
			roots++
		}
		left = k
	}
	return roots
}

// labelRow8 labels a row at 8-connectivity given the keys of the row above.
// The backward neighbours are up-left, up, up-right and left. When up is
// joined, it is the only edge needed: up-left and up-right are up's own
// neighbours, and left is up's diagonal neighbour. Otherwise left (or, if
// left is not joined, up-left) becomes the parent and up-right, if joined,
// is hooked. It returns the roots made minus the roots hooked away.
func labelRow8[K GridKey](labels []uint32, prev, cur []K, row []uint32, base uint32) int {
	w := uint32(len(cur))
	prev = prev[:len(cur)]
	row = row[:len(cur)]
	roots := 0
	last := len(cur) - 1
	for x, k := range cur {
		if k == 0 {
			row[x] = 0
			continue
		}
		v := base + uint32(x)
		if prev[x] == k {
			row[x] = v - w
			continue
		}
		var a uint32
		if x > 0 {
			if cur[x-1] == k {
				a = v - 1
			} else if prev[x-1] == k {
				a = v - w - 1
			}
		}
		switch {
		case x < last && prev[x+1] == k:
			c := v - w + 1
			if a == 0 {
				row[x] = c
			} else {
				row[x] = a
				if union(labels, a, c) != 0 {
					roots--
				}
			}
		case a != 0:
			row[x] = a
		default:
			row[x] = v
			roots++
		}
	}
	return roots
}

// labelRow4 labels a row at 4-connectivity given the keys of the row above.
// Left becomes the parent, and up is hooked unless up-left already joins
// the two.
func labelRow4[K GridKey](labels []uint32, prev, cur []K, row []uint32, base uint32) int {
	w := uint32(len(cur))
	prev = prev[:len(cur)]
	row = row[:len(cur)]
	roots := 0
	var left, upLeft K
	for x, k := range cur {
		up := prev[x]
		v := base + uint32(x)
		switch {
		case k == 0:
			row[x] = 0
		case k == left:
			row[x] = v - 1
			if up == k && upLeft != k && union(labels, v-1, v-w) != 0 {
				roots--
			}
		case k == up:
			row[x] = v - w
		default:
			row[x] = v
			roots++
		}
		left, upLeft = k, up
	}
	return roots
}

// mergeRows2D joins row y's pixels with their neighbours in row y-1.
func (g *gridLabeler[K]) mergeRows2D(y int, join func(a, b uint32)) {
	w := g.shape.Width
	prev := make([]K, w)
	cur := make([]K, w)
	g.src.Keys(y-1, prev)
	g.src.Keys(y, cur)
	base := uint32(y*w) + 1
	for x, k := range cur {
		if k == 0 {
			continue
		}
		v := base + uint32(x)
		lo, hi := x, x
		if g.conn == 8 {
			lo, hi = max(x-1, 0), min(x+1, w-1)
		}
		for u := lo; u <= hi; u++ {
			if prev[u] == k {
				join(v, base-uint32(w)+uint32(u))
			}
		}
	}
}
