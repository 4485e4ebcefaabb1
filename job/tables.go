package job

import (
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/atomicfile"
)

// tableFlags are the table settings of an [Image] or [Volume] job: what
// its statistics measure and where its contacts and intensity come from.
type tableFlags struct {
	command                    string
	settings                   Settings
	inputs                     []string
	stats, contacts, intensity string
	// labelOutputs reports that the job writes labels, a colour map or a
	// preview; statsOnly that it must not.
	labelOutputs, statsOnly bool
}

// check fails with a [UsageError] when the table settings do not fit
// together; else it returns the job's input files, the inputs and the
// intensity file, that no output may overwrite.
func (t tableFlags) check() ([]atomicfile.Named, error) {
	m := t.settings.Measures
	switch {
	case t.statsOnly && t.labelOutputs:
		return nil, usagef("%s: --stats-only writes no labels (no -o, --labels or --preview)", t.command)
	case t.statsOnly && t.stats == "" && t.contacts == "":
		return nil, usagef("%s: --stats-only needs --stats or --contacts", t.command)
	case (m.Intensity || m.Shape) && t.stats == "":
		return nil, usagef("%s: --measure and --intensity add statistics columns: give --stats", t.command)
	case t.intensity != "" && len(t.inputs) > 1:
		return nil, usagef("%s: --intensity takes a single input", t.command)
	case m.Intensity && t.intensity == "" && t.settings.Rule.Mode != imagegraph.Threshold:
		return nil, usagef("%s: intensity statistics need --intensity FILE (or --threshold, which measures the input itself)", t.command)
	}
	ins := inputFiles(t.inputs...)
	if t.intensity != "" {
		ins = append(ins, inputFiles(t.intensity)...)
	}
	return ins, nil
}

// measuresWhileLabeling reports whether a file's tables are measured as the
// GPU labels it (gpu(), asked last): only tables, no size filter
// (raster.LabelVolumeMeasured). Tests replace it to take that path on the CPU.
var measuresWhileLabeling = func(gpu func() bool, labelOutputs bool, stats, contacts string, s Settings) bool {
	return !labelOutputs && stats+contacts != "" && s.MinSize <= 1 && s.Largest <= 0 && gpu()
}
