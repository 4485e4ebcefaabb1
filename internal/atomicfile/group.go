package atomicfile

import (
	"fmt"
)

// A Group makes the outputs of one unit of work appear together.
//
// A [WriteFile] to one of its paths leaves the complete temporary file in
// place, [Group.Commit] renames them all, and [Group.Abort] (or
// [Interrupt]) removes them, so that either every output written is
// renamed into place or none is.
type Group struct {
	paths []string
	keys  []string
	done  map[string]string // key -> its complete temporary file
	open  bool
}

// NewGroup returns an open [Group] holding paths.
//
// It ignores "" and "-". It fails when another open group holds one of
// them, or two of them are the same file name.
func NewGroup(paths ...string) (*Group, error) {
	g := &Group{done: map[string]string{}, open: true}
	registry.Lock()
	defer registry.Unlock()
	if registry.interrupted {
		return nil, ErrInterrupted
	}
	for _, p := range paths {
		if p == "" || p == "-" {
			continue
		}
		k := key(p)
		if _, held := registry.groups[k]; held {
			for _, k := range g.keys {
				delete(registry.groups, k)
			}
			return nil, fmt.Errorf("%s: written by another output of this run", p)
		}
		registry.groups[k] = g
		g.paths, g.keys = append(g.paths, p), append(g.keys, k)
	}
	return g, nil
}

// Commit renames every complete output of the group into place and closes
// it.
//
// It renames them in the order the paths were given. Paths never written
// are left alone. After [Interrupt] it fails with [ErrInterrupted].
func (g *Group) Commit() error {
	registry.Lock()
	defer registry.Unlock()
	if !g.open {
		return nil
	}
	if registry.interrupted {
		return ErrInterrupted
	}
	g.open = false
	var err error
	for i, k := range g.keys {
		delete(registry.groups, k)
		tmp, ok := g.done[k]
		t := registry.temps[tmp]
		if !ok || t == nil {
			continue
		}
		if err != nil {
			t.drop(tmp, true)
			continue
		}
		old, rerr := replace(tmp, g.paths[i])
		if rerr != nil {
			err = fmt.Errorf("write %s: %w", g.paths[i], rerr)
		}
		t.drop(tmp, err != nil || old)
	}
	return err
}

// Abort removes the group's complete temporary files and closes it.
//
// It does nothing after [Group.Commit], so it may be deferred.
func (g *Group) Abort() {
	if g == nil {
		return
	}
	registry.Lock()
	defer registry.Unlock()
	if !g.open {
		return
	}
	g.open = false
	for _, k := range g.keys {
		if registry.groups[k] == g {
			delete(registry.groups, k)
		}
		if tmp, ok := g.done[k]; ok {
			if t := registry.temps[tmp]; t != nil {
				t.drop(tmp, true)
			}
		}
	}
}

// Paths returns the group's paths.
func (g *Group) Paths() []string { return g.paths }

// Written returns the file that holds what was written to path.
//
// That is its complete temporary file while an open [Group] holds it, else
// path.
func Written(path string) string {
	registry.Lock()
	defer registry.Unlock()
	if g := registry.groups[key(path)]; g != nil {
		if tmp, ok := g.done[key(path)]; ok {
			return tmp
		}
	}
	return path
}
