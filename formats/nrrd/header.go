package nrrd

import (
	"github.com/cclabel/cclabel/imagegraph"
)

// Field is one line of a NRRD header, as written in the file. It is a field
// ("key: value") or a key/value pair ("key:=value").
type Field struct {
	// Key is the field's identifier ("space directions") or the pair's
	// key, without surrounding spaces.
	Key string
	// Value is the field's description without surrounding spaces, or the
	// pair's value exactly as written (NRRD escapes are kept).
	Value string
	// Pair is set for key/value pairs (":="), which NRRD leaves to
	// applications.
	Pair bool
}

// Header is a parsed NRRD header. It holds every field and key/value pair in
// the order read, and the fields a reader needs, parsed. Absent optional
// fields are zero: nil slices, empty strings.
type Header struct {
	// Version is the X of the "NRRD000X" magic (1 to 5).
	Version int
	// Fields holds every field and key/value pair in file order, for
	// writing back; comments are dropped.
	Fields []Field
	// Type is the sample type's canonical NRRD name ("unsigned short",
	// "int", "float", ...) and Kind the matching sample kind.
	Type string
	Kind imagegraph.SampleKind
	// Dimension is the number of axes and Sizes their lengths, fastest
	// first.
	Dimension int
	Sizes     []int
	// Endian is "little", "big" or "" when not given.
	Endian string
	// Encoding is "raw", "ascii", "hex", "gzip" or "bzip2" (aliases such
	// as "gz" and "txt" are resolved).
	Encoding string
	// Space is the canonical long name of the world space
	// ("left-posterior-superior", "scanner-xyz", ...) or "" when not
	// given; SpaceDimension is its dimension, from "space" or "space
	// dimension" (0 when neither is given).
	Space          string
	SpaceDimension int
	// SpaceDirections holds one vector of SpaceDimension components per
	// axis, nil for axes given as "none"; the slice itself is nil when the
	// field is absent.
	SpaceDirections [][]float64
	// SpaceOrigin is the world position of the first sample, or nil.
	SpaceOrigin []float64
	// Spacings holds the per-axis "spacings" (NaN where "nan"), or nil.
	Spacings []float64
	// Kinds holds the per-axis kinds as written ("domain", "space",
	// "list", ...), or nil.
	Kinds []string
	// LineSkip is the number of lines and ByteSkip the number of bytes to
	// skip in each data file before its data; ByteSkip -1 means that raw
	// data lies at the end of the file.
	LineSkip int64
	ByteSkip int64
	// DataFiles names the detached data files in order, as written
	// (format-string lists are expanded); nil for attached data. Relative
	// names are relative to the header's folder.
	DataFiles []string
	// DataFileDim is the number of fastest axes that each data file
	// holds: Dimension for one file, less for a list of files.
	DataFileDim int
}

// nrrdMaxHeaderBytes bounds the size of a NRRD header.
const nrrdMaxHeaderBytes = 8 << 20

// nrrdMaxDimension is the largest dimension the NRRD format allows.
const nrrdMaxDimension = 16

// nrrdTypes maps every NRRD type name and alias (lower case, single
// spaces) to its canonical name.
var nrrdTypes = map[string]string{
	"signed char": "signed char", "int8": "signed char", "int8_t": "signed char",
	"uchar": "unsigned char", "unsigned char": "unsigned char", "uint8": "unsigned char", "uint8_t": "unsigned char",
	"short": "short", "short int": "short", "signed short": "short", "signed short int": "short",
	"int16": "short", "int16_t": "short",
	"ushort": "unsigned short", "unsigned short": "unsigned short", "unsigned short int": "unsigned short",
	"uint16": "unsigned short", "uint16_t": "unsigned short",
	"int": "int", "signed int": "int", "int32": "int", "int32_t": "int",
	"uint": "unsigned int", "unsigned int": "unsigned int", "uint32": "unsigned int", "uint32_t": "unsigned int",
	"longlong": "long long int", "long long": "long long int", "long long int": "long long int",
	"signed long long": "long long int", "signed long long int": "long long int",
	"int64": "long long int", "int64_t": "long long int",
	"ulonglong": "unsigned long long int", "unsigned long long": "unsigned long long int",
	"unsigned long long int": "unsigned long long int", "uint64": "unsigned long long int",
	"uint64_t": "unsigned long long int", "float": "float", "double": "double",
}

// nrrdKinds maps canonical NRRD type names to sample kinds.
var nrrdKinds = map[string]imagegraph.SampleKind{
	"signed char": imagegraph.Int8, "unsigned char": imagegraph.Uint8,
	"short": imagegraph.Int16, "unsigned short": imagegraph.Uint16,
	"int": imagegraph.Int32, "unsigned int": imagegraph.Uint32,
	"long long int": imagegraph.Int64, "unsigned long long int": imagegraph.Uint64,
	"float": imagegraph.Float32, "double": imagegraph.Float64,
}

// nrrdEncodings maps NRRD encoding names and aliases to canonical names.
var nrrdEncodings = map[string]string{
	"raw": "raw", "txt": "ascii", "text": "ascii", "ascii": "ascii", "hex": "hex",
	"gz": "gzip", "gzip": "gzip", "bz2": "bzip2", "bzip2": "bzip2",
}

// nrrdSpaces maps NRRD space names and abbreviations (lower case) to the
// canonical name and the space's dimension.
var nrrdSpaces = map[string]struct {
	name string
	dim  int
}{
	"right-anterior-superior": {"right-anterior-superior", 3}, "ras": {"right-anterior-superior", 3},
	"left-anterior-superior": {"left-anterior-superior", 3}, "las": {"left-anterior-superior", 3},
	"left-posterior-superior": {"left-posterior-superior", 3}, "lps": {"left-posterior-superior", 3},
	"right-anterior-superior-time": {"right-anterior-superior-time", 4}, "rast": {"right-anterior-superior-time", 4},
	"left-anterior-superior-time": {"left-anterior-superior-time", 4}, "last": {"left-anterior-superior-time", 4},
	"left-posterior-superior-time": {"left-posterior-superior-time", 4}, "lpst": {"left-posterior-superior-time", 4},
	"scanner-xyz": {"scanner-xyz", 3}, "scanner-xyz-time": {"scanner-xyz-time", 4},
	"3d-right-handed": {"3D-right-handed", 3}, "3d-left-handed": {"3D-left-handed", 3},
	"3d-right-handed-time": {"3D-right-handed-time", 4}, "3d-left-handed-time": {"3D-left-handed-time", 4},
}
