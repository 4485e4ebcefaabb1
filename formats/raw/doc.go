// Package raw reads headerless volumes of binary samples (ReadFile: a
// shape, a NumPy dtype name and a byte order say what the bytes are;
// MapFile maps them from the file where they can be used as stored), and
// decodes binary samples for the readers of other formats (ReadSamples,
// ErrShort).
//
// Errors of ReadFile read "formats: PATH: raw: ...".
package raw
