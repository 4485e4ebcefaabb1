package job

import (
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel/imagegraph"
)

// tableFlags are the table settings of an [Image] or [Volume] job: what
// its statistics measure and where its contacts and intensity come from.
type tableFlags struct {
	command                    string
	settings                   Settings
	inputs                     int
	stats, contacts, intensity string
	// labelOutputs reports that the job writes labels, a colour map or a
	// preview; statsOnly that it must not.
	labelOutputs, statsOnly bool
}

// check fails with a [UsageError] when the table settings do not fit
// together.
func (t tableFlags) check() error {
	m := t.settings.Measures
	switch {
	case t.statsOnly && t.labelOutputs:
		return usagef("%s: --stats-only writes no labels (no -o, --labels or --preview)", t.command)
	case t.statsOnly && t.stats == "" && t.contacts == "":
		return usagef("%s: --stats-only needs --stats or --contacts", t.command)
	case (m.Intensity || m.Shape) && t.stats == "":
		return usagef("%s: --measure and --intensity add statistics columns: give --stats", t.command)
	case t.intensity != "" && t.inputs > 1:
		return usagef("%s: --intensity takes a single input", t.command)
	case m.Intensity && t.intensity == "" && t.settings.Rule.Mode != imagegraph.Threshold:
		return usagef("%s: intensity statistics need --intensity FILE (or --threshold, which measures the input itself)", t.command)
	}
	return nil
}

// contactsName names the contacts file of an input of several, next to its
// statistics: stem.contacts.EXT in dir, ext (.csv or .json) lower-cased.
func contactsName(dir, stem, ext string) string {
	if ext == "" {
		return ""
	}
	return filepath.Join(dir, stem+".contacts"+strings.ToLower(ext))
}
