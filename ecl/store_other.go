//go:build !amd64 && !arm64

package ecl

import "sync/atomic"

// storeRelaxed stores val at *addr atomically. Architectures without an
// assembly version use sync/atomic's sequentially consistent store.
func storeRelaxed(addr *int32, val int32) { atomic.StoreInt32(addr, val) }
