package batch

import (
	"os"
	"strings"
)

// PendingRows returns one [Cancelled] row per input, to be filled in later.
// Each row says "interrupted before it started" until [Row.Record] fills it
// in as its input finishes: the rows of inputs a run never starts keep saying
// so.
func PendingRows(inputs []Input) []Row {
	rows := make([]Row, len(inputs))
	for i, in := range inputs {
		rows[i] = Row{Input: in.Path, Status: Cancelled, Error: "interrupted before it started"}
	}
	return rows
}

// Record fills in the row of an input that finished. It sets its seconds, its
// status ([Failed] with the error on one line, [Skipped] or [OK]), and no
// component or voxel counts unless it is [OK]. Output, Components and Voxels
// are the caller's to set while the input runs.
func (r *Row) Record(o Outcome) {
	r.Seconds, r.Error = o.Seconds, ""
	switch {
	case o.Err != nil:
		r.Status = Failed
		r.Error = strings.ReplaceAll(o.Err.Error(), "\n", " ")
	case o.Skipped:
		r.Status = Skipped
	default:
		r.Status = OK
	}
	if r.Status != OK { // counts are known for labeled and written inputs only
		r.Components, r.Voxels = 0, 0
	}
}

// Tally counts the rows of each status and sums their voxels.
func Tally(rows []Row) (counts map[Status]int, voxels int64) {
	counts = map[Status]int{}
	for _, r := range rows {
		counts[r.Status]++
		voxels += r.Voxels
	}
	return counts, voxels
}

// UpToDate reports whether every output exists and is newer than the input. A
// rerun may then skip the input. It is false when the input cannot be read.
func UpToDate(input string, outputs []string) bool {
	in, err := os.Stat(input)
	if err != nil {
		return false
	}
	for _, p := range outputs {
		st, err := os.Stat(p)
		if err != nil || !st.ModTime().After(in.ModTime()) {
			return false
		}
	}
	return true
}
