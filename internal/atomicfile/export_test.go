package atomicfile

// resetInterrupt undoes Interrupt, for tests that call it in process.
func resetInterrupt() {
	registry.Lock()
	defer registry.Unlock()
	registry.interrupted = false
}
