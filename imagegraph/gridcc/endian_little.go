//go:build !(armbe || arm64be || mips || mips64 || mips64p32 || ppc || ppc64 || s390 || s390x || sparc || sparc64)

package gridcc

// littleEndian reports the byte order runEnd's word compares assume: the
// lowest-addressed sample in a word's low bits.
const littleEndian = true
