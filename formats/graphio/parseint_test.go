package graphio

import (
	"strconv"
	"testing"
)

// TestParseIntMatchesStrconv compares with strconv.ParseInt on edge cases
// around the int64 range, signs, empty and stray bytes.
func TestParseIntMatchesStrconv(t *testing.T) {
	for _, s := range []string{"0", "-0", "+0", "7", "-7", "+7", "", "-", "+", "1a", " 1", "1 ", "--1",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "000000000000000000000000042", "99999999999999999999999"} {
		want, err := strconv.ParseInt(s, 10, 64)
		got, ok := parseInt([]byte(s))
		if ok != (err == nil) || (ok && got != want) {
			t.Errorf("parseInt(%q) = %d, %v; strconv gives %d, %v", s, got, ok, want, err)
		}
	}
}

func FuzzParseInt(f *testing.F) {
	for _, s := range []string{"0", "-12", "+9223372036854775807", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := strconv.ParseInt(s, 10, 64)
		got, ok := parseInt([]byte(s))
		if ok != (err == nil) || (ok && got != want) {
			t.Fatalf("parseInt(%q) = %d, %v; strconv gives %d, %v", s, got, ok, want, err)
		}
	})
}
