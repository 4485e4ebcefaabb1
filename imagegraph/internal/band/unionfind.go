package band

// Find returns the root (as index+1) of the pixel with parent entry a
// (index+1), halving the path on the way.
func Find(labels []uint32, a uint32) uint32 {
	curr := labels[a-1]
	if curr == a {
		return a
	}
	prev := a
	for {
		next := labels[curr-1]
		if next == curr {
			return curr
		}
		labels[prev-1] = next
		prev, curr = curr, next
	}
}

// FindRoot returns the root of a (index+1) without changing any parent.
// The border merges use it: path halving there could point a pixel into
// another band, which relabeling must never read.
func FindRoot(labels []uint32, a uint32) uint32 {
	for {
		p := labels[a-1]
		if p == a {
			return a
		}
		a = p
	}
}

// Union joins the trees of a and b, both index+1. It hooks the larger
// root under the smaller and returns the root that stopped being one, or 0
// when a and b were already joined.
func Union(labels []uint32, a, b uint32) uint32 {
	return Hook(labels, Find(labels, a), Find(labels, b))
}

// Hook joins roots ra and rb, the larger under the smaller. It returns the
// root that stopped being one, or 0 when they are the same.
func Hook(labels []uint32, ra, rb uint32) uint32 {
	switch {
	case ra < rb:
		labels[rb-1] = ra
		return rb
	case rb < ra:
		labels[ra-1] = rb
		return ra
	}
	return 0
}

// LinkContacts hooks the two runs of every contact and returns the number
// of roots that stopped being one. Consecutive contacts often share a run;
// its root is then the one the previous contact left.
func LinkContacts(labels []uint32, contacts []uint64) int {
	hooks := 0
	var lastR, lastP, root uint32
	for _, c := range contacts {
		r, p := uint32(c>>32), uint32(c)
		rr, rp := root, root
		if r != lastR {
			rr = Find(labels, r)
		}
		if p != lastP {
			rp = Find(labels, p)
		}
		if rr != rp {
			labels[max(rr, rp)-1] = min(rr, rp)
			hooks++
		}
		lastR, lastP, root = r, p, min(rr, rp)
	}
	return hooks
}

// LinkFreshContacts hooks the runs of contacts whose later runs are fresh
// roots. It is [LinkContacts] for contacts (r<<32 | p, p < r) whose runs r
// are still their own roots where they first occur, each r's contacts
// consecutive: a row's first links with the rows before it, in run order.
// Its first contact hooks r under p's parent without looking up the root
// (whose entry lies far back in label maps): that parent is in p's
// component and at most p < r, and r is still its own root, so every parent
// stays smaller than its child and each root the smallest slot of its
// component. Further contacts of the same r are linked as by LinkContacts.
func LinkFreshContacts(labels []uint32, contacts []uint64) int {
	hooks := 0
	var lastR uint32
	for _, c := range contacts {
		r, p := uint32(c>>32), uint32(c)
		if r != lastR {
			labels[r-1] = labels[p-1]
			hooks++
			lastR = r
			continue
		}
		rr, rp := Find(labels, r), Find(labels, p)
		if rr != rp {
			labels[max(rr, rp)-1] = min(rr, rp)
			hooks++
		}
	}
	return hooks
}

// b2i returns 1 for true and 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
