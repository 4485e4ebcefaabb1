// Package chunked parses text inputs in parallel: a stream is cut into
// chunks of whole lines (Chunk), parsed on several goroutines and
// committed in input order (ForChunks), with the byte scanning of the
// parsers' fast paths (ScanInt, SkipClass, LineEnd, TrimCR, ByteClasses).
package chunked
