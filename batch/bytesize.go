package batch

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseBytes reads a memory size: a number of bytes with an optional
// binary unit, K, M, G or T (also KB/KiB, ...; any case), such as 512M or
// 1.5G. It must be positive.
func ParseBytes(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "IB"), "B")
	scale := 1.0
	if t != "" {
		if i := strings.IndexByte("KMGT", t[len(t)-1]); i >= 0 {
			scale = math.Pow(1024, float64(i+1))
			t = t[:len(t)-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || !(v > 0) || v*scale >= math.MaxInt64 {
		return 0, fmt.Errorf("batch: memory size %q: want a positive size such as 512M or 4G", s)
	}
	return int64(math.Ceil(v * scale)), nil
}
