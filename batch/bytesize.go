package batch

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseBytes reads a memory size such as 512M, 512MiB or 1.5G. The size is a
// number of bytes with an optional binary unit, K, M, G or T, which may be
// followed by B or iB (any case; K, KB and KiB all mean 1024), or just B. It
// must be positive.
func ParseBytes(s string) (int64, error) {
	bad := fmt.Errorf("batch: memory size %q: want a positive size such as 512M, 512MiB or 4G", s)
	t := strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(s)), "B")
	if x, ok := strings.CutSuffix(t, "I"); ok { // iB follows a unit letter
		if x == "" || !strings.ContainsRune("KMGT", rune(x[len(x)-1])) {
			return 0, bad
		}
		t = x
	}
	scale := 1.0
	if t != "" {
		if i := strings.IndexByte("KMGT", t[len(t)-1]); i >= 0 {
			scale = math.Pow(1024, float64(i+1))
			t = t[:len(t)-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || !(v > 0) || v*scale >= math.MaxInt64 {
		return 0, bad
	}
	return int64(math.Ceil(v * scale)), nil
}
