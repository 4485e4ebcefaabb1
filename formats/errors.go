package formats

import "github.com/cclabel/cclabel/formats/internal/fileio"

// A FormatError reports malformed content: a file not valid in its format.
// The file may have a bad header, truncated or corrupt data, or a line that
// does not parse. Its fields are Path (the file, "" for unnamed input),
// Format ("nifti", "nrrd", "npy", "png", ...; "" when the message names none)
// and Err (what is wrong); its message is "formats: PATH: FORMAT: ERR"
// without the empty parts.
type FormatError = fileio.FormatError

// An UnsupportedError reports a valid file or request the formats cannot
// serve. The file or request uses a feature, sample type or file extension
// the format packages do not read or write. Its fields and message are those
// of [FormatError].
type UnsupportedError = fileio.UnsupportedError

// A FileError reports a failure to open, read, write or name a file. The
// cause is the system's error, or a request the file's format cannot carry
// out. Its fields are Path and Err; its message is "formats: PATH: ERR",
// without the path when Err is an [*fs.PathError] of the same path.
type FileError = fileio.FileError
