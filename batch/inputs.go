package batch

import (
	"errors"
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
	// found in a folder; for a glob match, the path below the glob's
	// leading folders without metacharacters ("data/*/t1.nii.gz" gives
	// "siteA/t1.nii.gz"); the base name for a file named directly or in
	// a list.
	Rel string
}

// ExpandOptions say how [Expand] treats folders.
type ExpandOptions struct {
	// Known reports whether a file met while walking a folder, or matched
	// by a glob, is an input (by its name). Files named directly are
	// always inputs.
	Known func(name string) bool
	// Skip is the output folder ("" for none). A folder walk passes over it
	// when it lies inside an input folder, compared by path (it may not exist
	// yet, or another shard may be creating it) and by identity
	// ([os.SameFile]); a folder argument that is the output folder itself is
	// an error, as outputs would land among the inputs.
	Skip string
}

// Expand turns the arguments of a batch into its inputs. The inputs are
// sorted by path, each file once. An argument is a file; a folder, walked
// recursively for Known files (names starting with '.' are passed over); a
// glob pattern ([filepath.Match] syntax) of files and folders when no file
// has that very name; or @FILE, a list read by [ReadList] whose lines are
// taken as arguments (without further @). Relative paths in a list are taken
// from the current folder, as on the command line, not from the list's
// folder. A list line that names no file is kept as an input, so that it
// fails and is reported with the others, while an argument that names
// nothing, a glob that matches nothing and a list that cannot be read are
// errors; so is finding no inputs at all. Symbolic links to files are
// followed; links to folders are not walked into (no cycles).
func Expand(args []string, opts ExpandOptions) ([]Input, error) {
	e := expander{opts: opts, seen: map[string]bool{}}
	if opts.Skip != "" {
		if st, err := os.Stat(opts.Skip); err == nil {
			e.skip = st
		}
		if abs, err := filepath.Abs(opts.Skip); err == nil {
			e.skipPath = abs
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

// ErrOutputIsInput reports that a folder argument is the output folder.
// [Expand]'s error wraps it (see [ExpandOptions.Skip]).
var ErrOutputIsInput = errors.New("the output folder is an input folder")

// expander collects inputs, each path once.
type expander struct {
	opts     ExpandOptions
	skip     os.FileInfo // the folder not to walk into, when it exists
	skipPath string      // its absolute path
	seen     map[string]bool
	inputs   []Input
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
		if _, err := os.Lstat(line); errors.Is(err, fs.ErrNotExist) && !isGlob(line) {
			e.add(line, filepath.Base(line)) // fails when read, as a row of the summary
			continue
		}
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
		return e.folder(arg, "")
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
	base := globBase(arg)
	found := false
	for _, m := range matches {
		st, err := os.Stat(m)
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(base, m)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			rel = filepath.Base(m)
		}
		switch {
		case st.IsDir() && e.isSkip(m): // "data/*" with -o data/labels
			continue
		case st.IsDir():
			if err := e.folder(m, rel); err != nil {
				return err
			}
			found = true
		case e.opts.Known == nil || e.opts.Known(filepath.Base(m)):
			e.add(m, rel)
			found = true
		}
	}
	if !found {
		return fmt.Errorf("batch: %s: matches no input", arg)
	}
	return nil
}

// isSkip reports whether a folder is the output folder.
func (e *expander) isSkip(path string) bool {
	if abs, err := filepath.Abs(path); err == nil && e.skipPath != "" && abs == e.skipPath {
		return true
	}
	if e.skip == nil {
		return false
	}
	st, err := os.Stat(path)
	return err == nil && os.SameFile(st, e.skip)
}

// folder walks a folder for known files; their Rel is the path below
// root, under prefix.
func (e *expander) folder(root, prefix string) error {
	if e.isSkip(root) {
		return fmt.Errorf("batch: %s: %w: outputs would be written among the inputs (and taken as inputs by a rerun); give -o another folder", root, ErrOutputIsInput)
	}
	walkRoot := root
	if st, err := os.Lstat(root); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		walkRoot = root + string(filepath.Separator) // WalkDir follows a root link only so
	}
	return filepath.WalkDir(walkRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("batch: %w", err)
		}
		if path != walkRoot && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if path != walkRoot && e.isSkip(path) {
				return filepath.SkipDir
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
		rel, err := filepath.Rel(walkRoot, path)
		if err != nil {
			return fmt.Errorf("batch: %w", err)
		}
		e.add(path, filepath.Join(prefix, rel))
		return nil
	})
}

// globBase returns the leading folders of a glob pattern that hold no
// metacharacters ("." when the first element has one).
func globBase(pattern string) string {
	dir := filepath.Dir(pattern)
	for isGlob(dir) {
		dir = filepath.Dir(dir)
	}
	return dir
}

// isGlob reports whether a path holds glob metacharacters.
func isGlob(path string) bool {
	return strings.ContainsAny(path, "*?[")
}
