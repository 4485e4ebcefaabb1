package job

import (
	"fmt"

	"github.com/cclabel/cclabel/formats/graphio"
)

// GraphRead is the "read" object of a [GraphSummary]. It tells what reading
// the graph file parsed, and how fast.
type GraphRead struct {
	// Bytes is the number of bytes parsed (decompressed, for a compressed
	// file).
	Bytes int64 `json:"bytes"`
	// Compression is "gzip", "zstd", "xz" or "bzip2" for a compressed
	// input.
	Compression string `json:"compression,omitempty"`
	// ParseSeconds is the time spent reading, decompressing and parsing;
	// BuildSeconds the time spent building the CSR graph.
	ParseSeconds float64 `json:"parse_seconds"`
	BuildSeconds float64 `json:"build_seconds"`
	// MBPerS is Bytes (in 10^6) per second of parsing and building.
	MBPerS float64 `json:"mb_per_s"`
}

// graphReadOf summarizes a read's statistics.
func graphReadOf(s graphio.ReadStats) GraphRead {
	return GraphRead{Bytes: s.Bytes, Compression: s.Compression,
		ParseSeconds: s.Parse.Seconds(), BuildSeconds: s.Build.Seconds(), MBPerS: s.MBPerSecond()}
}

// note is the read's part of the human summary: " (123 MB/s, gzip)".
func (s GraphRead) note() string {
	if s.Compression != "" {
		return fmt.Sprintf(" (%.0f MB/s, %s)", s.MBPerS, s.Compression)
	}
	return fmt.Sprintf(" (%.0f MB/s)", s.MBPerS)
}
