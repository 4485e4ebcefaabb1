package incremental

import (
	"strconv"
	"testing"
)

// TestParseIDMatchesStrconv compares parseID with strconv.ParseInt on edge
// cases around the int64 range, signs, empty and stray bytes.
func TestParseIDMatchesStrconv(t *testing.T) {
	for _, s := range []string{"0", "-0", "+0", "7", "-7", "+7", "", "-", "+", "1a", " 1", "1 ", "--1",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "000000000000000000000000042", "99999999999999999999999"} {
		want, err := strconv.ParseInt(s, 10, 64)
		got, ok := parseID([]byte(s))
		if ok != (err == nil) || (ok && got != want) {
			t.Errorf("parseID(%q) = %d, %v; strconv gives %d, %v", s, got, ok, want, err)
		}
	}
}
