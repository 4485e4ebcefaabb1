package main

import (
	"fmt"
	"runtime/debug"

	"github.com/urfave/cli/v3"
)

// versionFlag is the root command's --version.
var versionFlag = &cli.BoolFlag{Name: "version", Local: true, Usage: "print the version and VCS revision this binary was built from"}

// printVersion writes the version line of the running binary to std.Out.
func printVersion(std stdio) error {
	info, _ := debug.ReadBuildInfo()
	_, err := fmt.Fprintln(std.Out, versionLine(info))
	return err
}

// versionLine describes a build: "cclabel VERSION", the module version or
// "(devel)" when it has none, then the VCS revision (its first 12
// characters) and ", modified" when the work tree had changes, as in
// "cclabel v1.2.0 (rev 0123456789ab, modified)". A nil info (a binary
// without build information) reads as "(devel)".
func versionLine(info *debug.BuildInfo) string {
	version := "(devel)"
	var rev string
	var modified bool
	if info != nil {
		if v := info.Main.Version; v != "" {
			version = v
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value[:min(12, len(s.Value))]
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	line := "cclabel " + version
	switch {
	case rev != "" && modified:
		line += " (rev " + rev + ", modified)"
	case rev != "":
		line += " (rev " + rev + ")"
	case modified:
		line += " (modified)"
	}
	return line
}
