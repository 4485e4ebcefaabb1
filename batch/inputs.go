package batch

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Input is one file of a batch.
type Input struct {
	// Path is the file's path as found: an argument, a list line, a glob
	// match, or a folder argument joined with the path below it.
	Path string
	// Rel is where the file's outputs go under the output folder, with
	// the input's own name: the path below the folder argument for a file
	// found in a folder, the base name for a file named directly, by a
	// glob or in a list.
	Rel string
}

// ExpandOptions say how Expand treats folders.
type ExpandOptions struct {
	// Known reports whether a file met while walking a folder, or matched
	// by a glob, is an input (by its name). Files named directly are
	// always inputs.
	Known func(name string) bool
	// Skip is a folder not to walk into, such as the output folder when
	// it lies inside an input folder ("" for none).
	Skip string
}

// Expand turns the arguments of a batch into its inputs, sorted by path,
// each file once. An argument is a file; a folder, walked recursively for
// Known files (names starting with '.' are passed over); a glob pattern
// (filepath.Match syntax) of files and folders when no file has that very
// name; or @FILE, a list read by ReadList whose lines are taken as
// arguments (without further @). An argument that names nothing, a glob
// that matches nothing and a list that cannot be read are errors; so is
// finding no inputs at all.
func Expand(args []string, opts ExpandOptions) ([]Input, error) {
	e := expander{opts: opts, seen: map[string]bool{}}
	if opts.Skip != "" {
		if st, err := os.Stat(opts.Skip); err == nil {
			e.skip = st
		}
	}
	for _, arg := range args {
		if list, ok := strings.CutPrefix(arg, "@"); ok {
			if err := e.list(list); err != nil {
				return nil, err
			}
			continue
		}
		if err := e.arg(arg); err != nil {
			return nil, err
		}
	}
	if len(e.inputs) == 0 {
		return nil, fmt.Errorf("batch: no inputs found in %s", strings.Join(args, " "))
	}
	sort.Slice(e.inputs, func(i, j int) bool { return e.inputs[i].Path < e.inputs[j].Path })
	return e.inputs, nil
}

// expander collects inputs, each path once.
type expander struct {
	opts   ExpandOptions
	skip   os.FileInfo // the folder not to walk into
	seen   map[string]bool
	inputs []Input
}

// add records a file unless it was seen before.
func (e *expander) add(path, rel string) {
	key := filepath.Clean(path)
	if e.seen[key] {
		return
	}
	e.seen[key] = true
	e.inputs = append(e.inputs, Input{Path: path, Rel: filepath.Clean(rel)})
}

// list reads an @list file and takes each line as an argument.
func (e *expander) list(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("batch: @%s: %w", path, err)
	}
	defer f.Close()
	lines, err := ReadList(f)
	if err != nil {
		return fmt.Errorf("batch: @%s: %w", path, err)
	}
	for _, line := range lines {
		if err := e.arg(line); err != nil {
			return fmt.Errorf("batch: @%s: %w", path, err)
		}
	}
	return nil
}

// arg expands one argument: a file, a folder or a glob.
func (e *expander) arg(arg string) error {
	st, err := os.Stat(arg)
	switch {
	case err == nil && st.IsDir():
		return e.folder(arg)
	case err == nil:
		e.add(arg, filepath.Base(arg))
		return nil
	case !isGlob(arg):
		return fmt.Errorf("batch: %s: no such file or folder", arg)
	}
	matches, err := filepath.Glob(arg)
	if err != nil {
		return fmt.Errorf("batch: %s: %w", arg, err)
	}
	found := false
	for _, m := range matches {
		st, err := os.Stat(m)
		switch {
		case err != nil:
			continue
		case st.IsDir():
			if err := e.folder(m); err != nil {
				return err
			}
			found = true
		case e.opts.Known == nil || e.opts.Known(filepath.Base(m)):
			e.add(m, filepath.Base(m))
			found = true
		}
	}
	if !found {
		return fmt.Errorf("batch: %s: matches no input", arg)
	}
	return nil
}

// folder walks a folder for known files.
func (e *expander) folder(root string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("batch: %w", err)
		}
		if path != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if e.skip != nil && path != root {
				if st, err := os.Stat(path); err == nil && os.SameFile(st, e.skip) {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if e.opts.Known != nil && !e.opts.Known(d.Name()) {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 { // a link: take it when it leads to a file
			if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
				return nil
			}
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return fmt.Errorf("batch: %w", err)
		}
		e.add(path, rel)
		return nil
	})
}

// isGlob reports whether a path holds glob metacharacters.
func isGlob(path string) bool {
	return strings.ContainsAny(path, "*?[")
}
