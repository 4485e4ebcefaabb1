// Package samefile tells when an output of a run would replace one of its
// inputs or another of its outputs, by file identity, before any work is
// done.
package samefile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A File is a path given to a command and how the command names it in
// messages (a flag such as "-o", or "the input").
type File struct {
	Role string
	Path string
}

// Error is the error of [Check]: Output would replace Other.
type Error struct {
	Output, Other File
	// Input reports whether Other is an input.
	Input bool
}

func (e *Error) Error() string {
	if e.Input {
		return fmt.Sprintf("%s %s would replace the input %s", e.Output.Role, e.Output.Path, e.Other.Path)
	}
	return fmt.Sprintf("%s %s and %s %s are the same file", e.Other.Role, e.Other.Path, e.Output.Role, e.Output.Path)
}

// Check fails with an [*Error] when an output is the same file as an input
// or as another output. Files are the same when they exist and have the
// same device and inode (links followed), or, for a file that does not
// exist, the same cleaned absolute path with the links of its folder
// resolved. "" and "-" (standard streams) are ignored. An input that is a
// NIfTI header (.hdr, .hdr.gz) also stands for its image file (.img,
// .img.gz), which is read with it.
func Check(inputs, outputs []File) error {
	type seen struct {
		f     File
		input bool
	}
	files := map[string]seen{}
	for _, in := range inputs {
		for _, p := range withCompanions(in.Path) {
			if p != "" && p != "-" {
				files[identify(p)] = seen{File{in.Role, p}, true}
			}
		}
	}
	for _, out := range outputs {
		if out.Path == "" || out.Path == "-" {
			continue
		}
		id := identify(out.Path)
		if s, dup := files[id]; dup {
			return &Error{Output: out, Other: s.f, Input: s.input}
		}
		files[id] = seen{out, false}
	}
	return nil
}

// identify returns a key that two paths share when they name the same
// file: its device and inode when it exists (fileID), else its absolute
// path with the links of its folder resolved.
func identify(path string) string {
	if st, err := os.Stat(path); err == nil {
		if id, ok := fileID(st); ok {
			return id
		}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = filepath.Clean(path)
	}
	dir, base := filepath.Split(abs)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return "path " + filepath.Join(dir, base)
}

// withCompanions returns path and the files read with it.
func withCompanions(path string) []string {
	lower := strings.ToLower(path)
	for _, ext := range []string{".hdr", ".hdr.gz"} {
		if strings.HasSuffix(lower, ext) {
			stem := path[:len(path)-len(ext)]
			img := ".img" + ext[len(".hdr"):]
			if path[len(path)-len(ext)+1] == 'H' { // keep the case of the extension
				img = strings.ToUpper(img)
			}
			return []string{path, stem + img}
		}
	}
	return []string{path}
}
