package batch

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/job"
)

// Status is the outcome of one input.
type Status string

// The outcomes of an input.
const (
	// OK: labeled and written.
	OK Status = "ok"
	// Failed: reading, labeling or writing failed; Row.Error says why.
	Failed Status = "failed"
	// Skipped: the outputs exist and are newer than the input.
	Skipped Status = "skipped"
	// Cancelled: the run was interrupted before the input was started.
	Cancelled Status = "cancelled"
)

// Columns are the summary's columns, in order.
var Columns = []string{"input", "output", "status", "error", "components", "voxels", "seconds"}

// Row is one input's line of the summary.
type Row struct {
	Input  string // the input's path
	Output string // its main output's path
	Status Status
	Error  string // why it failed, or why a skipped input was left to another run; "" otherwise
	// Components and Voxels (pixels of an image, voxels over all frames of a
	// volume) are known for [OK] rows only; they are written empty (CSV) or
	// null (JSON) on the others.
	Components, Voxels int64
	Seconds            float64 // reading, labeling and writing time
}

// summaryFormat returns "csv" or "json" from a summary path's extension.
func summaryFormat(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return "csv", nil
	case ".json":
		return "json", nil
	}
	return "", fmt.Errorf("batch: summary %s: want a .csv or .json file", path)
}

// CheckSummaryPath checks that path names a .csv or .json file.
func CheckSummaryPath(path string) error {
	_, err := summaryFormat(path)
	return err
}

// WriteSummaryFile writes rows to path atomically. It writes CSV or JSON by
// the extension.
func WriteSummaryFile(path string, rows []Row) error {
	format, err := summaryFormat(path)
	if err != nil {
		return err
	}
	err = atomicfile.WriteFile(path, func(w io.Writer) error { return WriteSummary(w, rows, format) })
	if err != nil {
		return fmt.Errorf("batch: summary %s: %w", path, err)
	}
	return nil
}

// WriteSummary writes rows to w in the given format, "csv" or "json". CSV is
// a header line of [Columns], then one line per row; JSON is an array of
// objects with the [Columns] as keys.
func WriteSummary(w io.Writer, rows []Row, format string) error {
	switch format {
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write(Columns)
		for _, r := range rows {
			comp, vox := "", ""
			if r.Status == OK {
				comp, vox = strconv.FormatInt(r.Components, 10), strconv.FormatInt(r.Voxels, 10)
			}
			cw.Write([]string{r.Input, r.Output, string(r.Status), r.Error, comp, vox, formatSeconds(r.Seconds)})
		}
		cw.Flush()
		return cw.Error()
	case "json":
		out := make([]jsonRow, len(rows))
		for i, r := range rows {
			out[i] = jsonRow{Input: r.Input, Output: r.Output, Status: string(r.Status), Error: r.Error,
				Seconds: json.Number(formatSeconds(r.Seconds))}
			if r.Status == OK {
				out[i].Components, out[i].Voxels = &rows[i].Components, &rows[i].Voxels
			}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	return fmt.Errorf("batch: summary format %q: want csv or json", format)
}

// jsonRow is a Row as a JSON object.
type jsonRow struct {
	Input      string      `json:"input"`
	Output     string      `json:"output"`
	Status     string      `json:"status"`
	Error      string      `json:"error"`
	Components *int64      `json:"components"`
	Voxels     *int64      `json:"voxels"`
	Seconds    json.Number `json:"seconds"`
}

// formatSeconds writes seconds with millisecond precision.
func formatSeconds(s float64) string { return strconv.FormatFloat(s, 'f', 3, 64) }

// ReadSummaryFile reads a summary written by [WriteSummaryFile]. It reads CSV
// or JSON by the extension.
func ReadSummaryFile(path string) ([]Row, error) {
	format, err := summaryFormat(path)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("batch: %w", err)
	}
	rows, err := ReadSummary(bytes.NewReader(data), format)
	if err != nil {
		return nil, fmt.Errorf("batch: summary %s: %w", path, err)
	}
	return rows, nil
}

// ReadSummary reads a "csv" or "json" summary. The CSV header must be exactly
// [Columns] and every JSON object must have exactly their keys; a status must
// be ok, failed, skipped or cancelled; components and voxels must be
// non-negative integers on ok rows and empty (null) on the others; seconds
// must be a finite non-negative number. Errors name the row.
func ReadSummary(r io.Reader, format string) ([]Row, error) {
	switch format {
	case "csv":
		return readSummaryCSV(r)
	case "json":
		return readSummaryJSON(r)
	}
	return nil, fmt.Errorf("summary format %q: want csv or json", format)
}

// readSummaryCSV reads the CSV form.
func readSummaryCSV(r io.Reader) ([]Row, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err == io.EOF {
		return nil, errors.New("empty file: want a header line " + strings.Join(Columns, ","))
	}
	if err != nil {
		return nil, err
	}
	if !slices.Equal(header, Columns) {
		return nil, fmt.Errorf("header %q does not match %q", strings.Join(header, ","), strings.Join(Columns, ","))
	}
	var rows []Row
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		if len(rec) != len(Columns) {
			return nil, fmt.Errorf("row %d: %d fields, want %d", line-1, len(rec), len(Columns))
		}
		row, err := parseRow(rec[0], rec[1], rec[2], rec[3], rec[4], rec[5], rec[6])
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", line-1, err)
		}
		rows = append(rows, row)
	}
}

// readSummaryJSON reads the JSON form.
func readSummaryJSON(r io.Reader) ([]Row, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	var objs []map[string]json.RawMessage
	if err := dec.Decode(&objs); err != nil {
		return nil, fmt.Errorf("want a JSON array of objects: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON array")
	}
	rows := make([]Row, 0, len(objs))
	for i, obj := range objs {
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		want := slices.Clone(Columns)
		sort.Strings(keys)
		sort.Strings(want)
		if !slices.Equal(keys, want) {
			return nil, fmt.Errorf("row %d: keys %q do not match %q", i+1, strings.Join(keys, ","), strings.Join(Columns, ","))
		}
		var f [7]string
		for c, name := range Columns {
			v, err := jsonField(obj[name], c >= 4)
			if err != nil {
				return nil, fmt.Errorf("row %d: %s: %w", i+1, name, err)
			}
			f[c] = v
		}
		row, err := parseRow(f[0], f[1], f[2], f[3], f[4], f[5], f[6])
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", i+1, err)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// jsonField returns a field as text: a string, or for a numeric field a
// number or null ("").
func jsonField(raw json.RawMessage, numeric bool) (string, error) {
	if numeric {
		if string(raw) == "null" {
			return "", nil
		}
		var n json.Number
		if err := json.Unmarshal(raw, &n); err != nil || n == "" {
			return "", fmt.Errorf("want a number, got %s", raw)
		}
		return n.String(), nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("want a string, got %s", raw)
	}
	return s, nil
}

// parseRow checks and converts one row's fields.
func parseRow(input, output, status, errText, components, voxels, seconds string) (Row, error) {
	row := Row{Input: input, Output: output, Status: Status(status), Error: errText}
	if input == "" {
		return Row{}, errors.New("empty input")
	}
	switch row.Status {
	case OK, Failed, Skipped, Cancelled:
	default:
		return Row{}, fmt.Errorf("status %q: want ok, failed, skipped or cancelled", status)
	}
	var err error
	if row.Status == OK {
		if row.Components, err = parseCount(components); err != nil {
			return Row{}, fmt.Errorf("components: %w", err)
		}
		if row.Voxels, err = parseCount(voxels); err != nil {
			return Row{}, fmt.Errorf("voxels: %w", err)
		}
	} else if components != "" || voxels != "" {
		return Row{}, fmt.Errorf("components and voxels given for a %s row", status)
	}
	row.Seconds, err = strconv.ParseFloat(seconds, 64)
	if err != nil || row.Seconds < 0 || math.IsInf(row.Seconds, 0) || math.IsNaN(row.Seconds) {
		return Row{}, fmt.Errorf("seconds %q: want a non-negative number", seconds)
	}
	return row, nil
}

// parseCount reads a non-negative integer.
func parseCount(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q: want a non-negative integer", s)
	}
	return n, nil
}

// Merge combines the rows of several summaries into one table. The summaries
// are, for instance, the shards of one job; the table is sorted by input, one
// row per input: when an input has rows in several summaries (a shard run
// again into a new summary, or a merged summary merged again), the row given
// last wins, so give the summaries oldest first. replaced counts the rows
// dropped that way.
func Merge(summaries ...[]Row) (rows []Row, replaced int) {
	at := map[string]int{} // input -> index in rows
	for _, s := range summaries {
		for _, r := range s {
			if i, dup := at[r.Input]; dup {
				rows[i] = r
				replaced++
				continue
			}
			at[r.Input] = len(rows)
			rows = append(rows, r)
		}
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Input < rows[j].Input })
	return rows, replaced
}

// MergeFiles merges the summary files at paths and writes the result to out.
// It reads each as CSV or JSON, merges them with [Merge] and writes out
// atomically; out may be one of paths.
func MergeFiles(out string, paths []string) (rows []Row, replaced int, err error) {
	if err := CheckSummaryPath(out); err != nil {
		return nil, 0, err
	}
	var all [][]Row
	for _, p := range paths {
		rows, err := ReadSummaryFile(p)
		if err != nil {
			return nil, 0, err
		}
		all = append(all, rows)
	}
	rows, replaced = Merge(all...)
	return rows, replaced, WriteSummaryFile(out, rows)
}

// MergeSummaries merges the summaries at paths into out, reporting on p. It
// merges with [MergeFiles], as "cclabel batch --merge-summaries" does, and
// reports always how many inputs had rows in several summaries, unless quiet
// what was merged. It fails with a [job.UsageError], before any work, when
// there is nothing to merge or out would replace one of paths.
func MergeSummaries(out string, paths []string, p job.Progress) error {
	if len(paths) == 0 {
		return job.UsageError{Err: fmt.Errorf("batch: --merge-summaries %s: give the summaries to merge as arguments", out)}
	}
	if err := CheckSummaryPath(out); err != nil {
		return job.UsageError{Err: err}
	}
	ins := make([]atomicfile.Named, len(paths))
	for i, path := range paths {
		ins[i] = atomicfile.Named{Role: "input", Path: path}
	}
	if err := atomicfile.CheckDistinct(ins, []atomicfile.Named{{Role: "--merge-summaries", Path: out}}); err != nil {
		return job.UsageError{Err: fmt.Errorf("batch: %v", err)}
	}
	rows, replaced, err := MergeFiles(out, paths)
	if err != nil {
		return err
	}
	w := p.W
	if w == nil {
		w = io.Discard
	}
	if replaced > 0 { // even when quiet: it may hide a mistake, such as overlapping shards
		fmt.Fprintf(w, "batch: %d inputs had rows in several summaries; the rows of the summaries given last were kept\n", replaced)
	}
	if !p.Quiet {
		counts, _ := Tally(rows)
		fmt.Fprintf(w, "batch: merged %d summaries into %s: %d inputs, %d ok, %d failed, %d skipped, %d cancelled\n",
			len(paths), out, len(rows), counts[OK], counts[Failed], counts[Skipped], counts[Cancelled])
	}
	return nil
}
