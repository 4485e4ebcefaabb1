package pdeflate

// crcPoly is the reflected CRC-32 (IEEE) polynomial, as hash/crc32 uses.
const crcPoly = 0xedb88320

// adlerMod is the Adler-32 modulus, the largest prime below 2^16.
const adlerMod = 65521

// CRC32Combine returns the CRC-32 of two concatenated byte strings from
// their CRCs.
//
// The CRC is IEEE's, as [crc32.ChecksumIEEE] computes it. CRC32Combine
// takes the CRC of the first string, the CRC of the second and the
// second's length, as zlib's crc32_combine does. It takes O(log len2)
// steps. A negative len2 is taken as 0.
func CRC32Combine(crc1, crc2 uint32, len2 int64) uint32 {
	return crcMultModP(crcXPow8N(len2), crc1) ^ crc2
}

// crcMultModP multiplies two polynomials over GF(2) modulo the CRC
// polynomial, in the reflected bit order of the CRC (bit 31 is x^0).
func crcMultModP(a, b uint32) uint32 {
	var p uint32
	for m := uint32(1) << 31; m != 0 && a != 0; m >>= 1 {
		if a&m != 0 {
			p ^= b
			a ^= m
		}
		if b&1 != 0 {
			b = b>>1 ^ crcPoly
		} else {
			b >>= 1
		}
	}
	return p
}

// crcXPow8N returns x^(8n) modulo the CRC polynomial: the operator that
// appends n zero bytes to a CRC's message.
func crcXPow8N(n int64) uint32 {
	p := uint32(1) << 31  // x^0
	sq := uint32(1) << 23 // x^8, then x^16, x^32, ...
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			p = crcMultModP(sq, p)
		}
		sq = crcMultModP(sq, sq)
	}
	return p
}

// Adler32Combine returns the Adler-32 of two concatenated byte strings from
// their checksums.
//
// The checksum is the one [adler32.Checksum] computes. Adler32Combine
// takes the checksum of the first string, the checksum of the second and
// the second's length, as zlib's adler32_combine does. A negative len2 is
// taken as 0.
func Adler32Combine(adler1, adler2 uint32, len2 int64) uint32 {
	rem := uint64(max(len2, 0) % adlerMod)
	a1, b1 := uint64(adler1&0xffff), uint64(adler1>>16)
	a2, b2 := uint64(adler2&0xffff), uint64(adler2>>16)
	// The second string's sums started from a = 1, b = 0; shifting them
	// to start from (a1, b1) adds a1-1 to each a and len2*(a1-1) + b1
	// to b. The terms are kept non-negative by adding multiples of the
	// modulus.
	a := (a1 + a2 + adlerMod - 1) % adlerMod
	b := (rem*a1 + b1 + b2 + adlerMod - rem) % adlerMod
	return uint32(b<<16 | a)
}
