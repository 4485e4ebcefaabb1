//go:build !linux

package driver

// HolderEnv names the holder's variable; no holder is started on this
// system.
const HolderEnv = "CCLABEL_GPU_HOLDER"

// HandOff does nothing: the driver is loaded on Linux only.
func HandOff(bool) error { return nil }

// Hold returns: no holder is started on this system.
func Hold() {}
