package fileprogress

import (
	"path/filepath"
	"sync"
	"sync/atomic"
)

// watched maps what is watched to its meter; watching counts the
// entries, so that lookups cost nothing while nothing is watched.
var (
	watched  sync.Map // key → *Meter
	watching atomic.Int64
)

// fileKey is the key of a watched file: its cleaned absolute path.
type fileKey string

// keyOf returns the key of path, or false when it has none (an empty
// path, or "-" for a standard stream).
func keyOf(path string) (fileKey, bool) {
	if path == "" || path == "-" {
		return "", false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", false
	}
	return fileKey(abs), true
}

// Watch makes [For](key) return m until stop is called.
//
// The key must be comparable; a pointer to the thing worked on (a volume
// being labeled) is a good one. A later Watch of the same key replaces m
// until its own stop; a stop after that does nothing.
func Watch(key any, m *Meter) (stop func()) {
	if m == nil || key == nil {
		return func() {}
	}
	watched.Store(key, m)
	watching.Add(1)
	var once sync.Once
	return func() {
		once.Do(func() {
			watched.CompareAndDelete(key, m)
			watching.Add(-1)
		})
	}
}

// For returns the meter watching key, or nil.
func For(key any) *Meter {
	if watching.Load() == 0 || key == nil {
		return nil
	}
	if m, ok := watched.Load(key); ok {
		return m.(*Meter)
	}
	return nil
}

// WatchFile is [Watch] for the file at path, however it is named later.
//
// The later name may be relative or absolute, cleaned or not. An empty
// path and "-" are not watched.
func WatchFile(path string, m *Meter) (stop func()) {
	key, ok := keyOf(path)
	if !ok {
		return func() {}
	}
	return Watch(key, m)
}

// ForFile returns the meter watching the file at path, or nil.
//
// Readers and writers ask for the path they were given.
func ForFile(path string) *Meter {
	if watching.Load() == 0 {
		return nil
	}
	key, ok := keyOf(path)
	if !ok {
		return nil
	}
	return For(key)
}
