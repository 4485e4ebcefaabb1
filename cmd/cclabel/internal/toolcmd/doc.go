// Package toolcmd holds cclabel's auxiliary commands: gen (synthetic
// inputs), bench (throughput per backend) and devices (the usable GPUs).
package toolcmd
