package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionLine(t *testing.T) {
	build := func(version string, settings ...string) *debug.BuildInfo {
		info := &debug.BuildInfo{Main: debug.Module{Path: "github.com/cclabel/cclabel", Version: version}}
		for i := 0; i < len(settings); i += 2 {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return info
	}
	const rev = "0123456789abcdef0123456789abcdef01234567"
	for _, c := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "cclabel (devel)"},
		{"no version", build(""), "cclabel (devel)"},
		{"devel", build("(devel)"), "cclabel (devel)"},
		{"release", build("v1.2.0"), "cclabel v1.2.0"},
		{"clean tree", build("v1.2.0", "vcs", "git", "vcs.revision", rev, "vcs.modified", "false"), "cclabel v1.2.0 (rev 0123456789ab)"},
		{"modified tree", build("(devel)", "vcs.revision", rev, "vcs.modified", "true"), "cclabel (devel) (rev 0123456789ab, modified)"},
		{"short revision", build("v0.0.0-20250101000000-abcdef", "vcs.revision", "abc"), "cclabel v0.0.0-20250101000000-abcdef (rev abc)"},
		{"modified without revision", build("", "vcs.modified", "true"), "cclabel (devel) (modified)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := versionLine(c.info); got != c.want {
				t.Errorf("versionLine = %q, want %q", got, c.want)
			}
		})
	}
}

func TestVersionFlag(t *testing.T) {
	r := runCLI(t, "", "--version")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("--version: exit %d, stderr %q", r.code, r.stderr)
	}
	info, _ := debug.ReadBuildInfo()
	if want := versionLine(info) + "\n"; r.stdout != want {
		t.Errorf("--version printed %q, want %q", r.stdout, want)
	}
	if !strings.HasPrefix(r.stdout, "cclabel ") {
		t.Errorf("--version printed %q", r.stdout)
	}
	// The flag belongs to the root command alone.
	if r := runCLI(t, "", "help", "label"); strings.Contains(r.stdout, "--version") {
		t.Errorf("label's help lists --version:\n%s", r.stdout)
	}
}
