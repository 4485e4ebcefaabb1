package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A Named file is a path given to a command, with its name in messages.
//
// Role is how the command names it (a flag such as "-o", or "the input").
type Named struct {
	Role string
	Path string
}

// SameFileError is the error of [CheckDistinct]: Output would replace Other.
type SameFileError struct {
	Output, Other Named
	// Input reports whether Other is an input.
	Input bool
}

func (e *SameFileError) Error() string {
	if e.Input {
		return fmt.Sprintf("%s %s would replace the input %s", e.Output.Role, e.Output.Path, e.Other.Path)
	}
	return fmt.Sprintf("%s %s and %s %s are the same file", e.Other.Role, e.Other.Path, e.Output.Role, e.Output.Path)
}

// CheckDistinct fails when an output would replace an input or another
// output.
//
// Its error is a [*SameFileError]: an output is the same file as an input
// or as another output. Files are the same when they exist and have the
// same device and inode (links followed), or, for a file that does not
// exist, the same cleaned absolute path with the links of its folder
// resolved. "" and "-" (standard streams) are ignored. An input that is a
// NIfTI header (.hdr, .hdr.gz) also stands for its image file (.img,
// .img.gz), which is read with it.
func CheckDistinct(inputs, outputs []Named) error {
	type seen struct {
		f     Named
		input bool
	}
	files := map[string]seen{}
	for _, in := range inputs {
		for _, p := range withCompanions(in.Path) {
			if p != "" && p != "-" {
				files[identify(p)] = seen{Named{in.Role, p}, true}
			}
		}
	}
	for _, out := range outputs {
		if out.Path == "" || out.Path == "-" {
			continue
		}
		id := identify(out.Path)
		if s, dup := files[id]; dup {
			return &SameFileError{Output: out, Other: s.f, Input: s.input}
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
