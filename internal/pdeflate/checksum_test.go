package pdeflate

import (
	"hash/adler32"
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

// TestChecksumCombine checks CRC32Combine and Adler32Combine against
// hash/crc32 and hash/adler32 on random data split at random points,
// including empty halves and long runs of 0xff (the worst case for
// Adler-32's sums).
func TestChecksumCombine(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	data := make([]byte, 3<<20)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	for i := range data[1<<20 : 2<<20] {
		data[1<<20+i] = 0xff
	}
	for trial := range 300 {
		lo := rng.IntN(len(data))
		hi := lo + rng.IntN(len(data)-lo+1)
		if trial%3 == 0 {
			hi = min(len(data), lo+rng.IntN(100)) // short strings
		}
		mid := lo + rng.IntN(hi-lo+1)
		switch trial % 7 {
		case 0:
			mid = lo
		case 1:
			mid = hi
		}
		a, b := data[lo:mid], data[mid:hi]
		if got, want := CRC32Combine(crc32.ChecksumIEEE(a), crc32.ChecksumIEEE(b), int64(len(b))), crc32.ChecksumIEEE(data[lo:hi]); got != want {
			t.Fatalf("crc32 of %d+%d bytes: combined %08x, want %08x", len(a), len(b), got, want)
		}
		if got, want := Adler32Combine(adler32.Checksum(a), adler32.Checksum(b), int64(len(b))), adler32.Checksum(data[lo:hi]); got != want {
			t.Fatalf("adler32 of %d+%d bytes: combined %08x, want %08x", len(a), len(b), got, want)
		}
	}
}

// TestChecksumCombineLong checks combining across lengths beyond 4 GiB and
// past the Adler-32 modulus without materialising the data: a run of
// zeros extends the CRC by a known operator, so combining with the CRC of
// k zeros twice must equal combining with 2k zeros once.
func TestChecksumCombineLong(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 1 << 20} {
		zeros := make([]byte, n)
		if got, want := crcZeros(int64(n)), crc32.ChecksumIEEE(zeros); got != want {
			t.Fatalf("crc32 of %d zeros: %08x, want %08x", n, got, want)
		}
		if got, want := adlerZeros(int64(n)), adler32.Checksum(zeros); got != want {
			t.Fatalf("adler32 of %d zeros: %08x, want %08x", n, got, want)
		}
	}
	for _, k := range []int64{1, 65521, 65522, 1 << 31, 5<<30 + 7} {
		c := uint32(0x12345678)
		twice := CRC32Combine(CRC32Combine(c, crcZeros(k), k), crcZeros(k), k)
		once := CRC32Combine(c, crcZeros(2*k), 2*k)
		if twice != once {
			t.Fatalf("crc32 over 2x%d zeros: %08x != %08x", k, twice, once)
		}
		a := uint32(0x0abc0def)
		twiceA := Adler32Combine(Adler32Combine(a, adlerZeros(k), k), adlerZeros(k), k)
		onceA := Adler32Combine(a, adlerZeros(2*k), 2*k)
		if twiceA != onceA {
			t.Fatalf("adler32 over 2x%d zeros: %08x != %08x", k, twiceA, onceA)
		}
	}
}

// crcZeros returns the CRC-32 of n zero bytes, by doubling.
func crcZeros(n int64) uint32 {
	one := crc32.ChecksumIEEE([]byte{0})
	crc, run, runLen := uint32(0), one, int64(1)
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			crc = CRC32Combine(crc, run, runLen)
		}
		run = CRC32Combine(run, run, runLen)
		runLen *= 2
	}
	return crc
}

// adlerZeros returns the Adler-32 of n zero bytes: a = 1, b = n.
func adlerZeros(n int64) uint32 {
	return uint32(n%adlerMod)<<16 | 1
}
