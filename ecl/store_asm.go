//go:build amd64 || arm64

package ecl

// storeRelaxed stores val at *addr with a plain machine store: a relaxed
// atomic store, since aligned 32-bit stores are single-copy atomic on amd64
// and arm64. ECL-CC's path halving and ECLaf's hooks only need that;
// sync/atomic's stores are sequentially consistent, which on amd64 means
// XCHG, a full fence that stalls the independent loads ECL-CC overlaps.
//
//go:noescape
func storeRelaxed(addr *int32, val int32)
