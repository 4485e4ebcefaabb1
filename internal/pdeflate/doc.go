// Package pdeflate compresses one gzip or zlib stream on several
// goroutines, as pigz does.
//
// Any gzip or zlib decoder reads the result. [Writer] takes data that
// arrives in pieces; [WriteFunc] compresses a stream whose bytes a
// callback produces.
package pdeflate
