//go:build !amd64 || purego

package gridcc

// otherBytes looks at no byte: without the amd64 kernel, scanByte
// compares words.
func otherBytes(d []uint8, v uint8) (bool, int) { return false, 0 }
