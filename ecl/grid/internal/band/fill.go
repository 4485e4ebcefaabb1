package band

// SentinelColumn is past every column, and so is SentinelColumn+1: the
// labelers end their lists of runs with runs there.
const SentinelColumn = 1<<31 - 2

// Fill32 sets every element of s to v, with overlapping stores of eight
// or four and no loop for the tail.
func Fill32(s []uint32, v uint32) {
	n := len(s)
	switch {
	case n >= 8:
		for i := 0; i+8 <= n; i += 8 {
			t := s[i : i+8 : i+8]
			t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7] = v, v, v, v, v, v, v, v
		}
		t := s[n-8 : n : n]
		t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7] = v, v, v, v, v, v, v, v
	case n >= 4:
		t := s[:4:4]
		t[0], t[1], t[2], t[3] = v, v, v, v
		t = s[n-4 : n : n]
		t[0], t[1], t[2], t[3] = v, v, v, v
	case n > 0:
		s[0], s[n>>1], s[n-1] = v, v, v
	}
}

// Clear32 sets every element of s to 0.
func Clear32(s []uint32) {
	if len(s) > 64 {
		clear(s)
		return
	}
	Fill32(s, 0)
}
