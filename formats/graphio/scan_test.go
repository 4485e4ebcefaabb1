package graphio

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// scanIntReference is scanInt one byte at a time.
func scanIntReference(data []byte, i int, signed bool, stop uint8) (int64, int, bool) {
	j := i
	if signed && j < len(data) && data[j] == '-' {
		j++
	}
	start := j
	for j < len(data) && '0' <= data[j] && data[j] <= '9' {
		j++
	}
	if n := j - start; n == 0 || n > maxFastDigits {
		return 0, 0, false
	}
	if j < len(data) && byteClasses[data[j]]&stop == 0 {
		return 0, 0, false
	}
	x, err := strconv.ParseInt(string(data[i:j]), 10, 64)
	if err != nil {
		panic(err)
	}
	return x, j, true
}

func TestScanInt(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("0123456789000-\t ,\n+x/:\x80\xff")
	for range 50000 {
		data := make([]byte, r.IntN(30))
		for k := range data {
			if r.IntN(4) == 0 {
				data[k] = alphabet[r.IntN(len(alphabet))]
			} else {
				data[k] = '0' + byte(r.IntN(10))
			}
		}
		i := 0
		if len(data) > 0 {
			i = r.IntN(len(data))
		}
		signed := r.IntN(2) == 0
		stop := uint8(classSpace | classNewline)
		if r.IntN(2) == 0 {
			stop |= classComma
		}
		x, next, ok := scanInt(data, i, signed, stop)
		wx, wnext, wok := scanIntReference(data, i, signed, stop)
		if x != wx || next != wnext || ok != wok {
			t.Fatalf("scanInt(%q, %d, %v) = %d, %d, %v; want %d, %d, %v", data, i, signed, x, next, ok, wx, wnext, wok)
		}
	}
}
