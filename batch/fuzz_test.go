package batch

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// FuzzReadSummary checks that the summary reader never panics and that
// what it accepts writes back to a table it reads the same.
func FuzzReadSummary(f *testing.F) {
	f.Add("input,output,status,error,components,voxels,seconds\na,b,ok,,1,2,0.5\nc,d,failed,\"x, y\",,,0.1\n", false)
	f.Add(`[{"input":"a","output":"b","status":"skipped","error":"","components":null,"voxels":null,"seconds":0}]`, true)
	f.Fuzz(func(t *testing.T, text string, asJSON bool) {
		format := map[bool]string{false: "csv", true: "json"}[asJSON]
		rows, err := ReadSummary(strings.NewReader(text), format)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteSummary(&buf, rows, format); err != nil {
			t.Fatal(err)
		}
		back, err := ReadSummary(&buf, format)
		if err != nil {
			t.Fatalf("rewritten summary unreadable: %v\n%s", err, buf.String())
		}
		for i := range rows {
			rows[i].Seconds, back[i].Seconds = 0, 0 // written to the millisecond
		}
		if !reflect.DeepEqual(rows, back) {
			t.Fatalf("round trip changed rows:\n%+v\n%+v", rows, back)
		}
	})
}

// FuzzReadList checks that the list reader never panics and returns only
// trimmed, non-empty, non-comment lines.
func FuzzReadList(f *testing.F) {
	f.Add("a.nii.gz\n# comment\n\n  b.png \r\n")
	f.Add("\xff\n")
	f.Fuzz(func(t *testing.T, text string) {
		paths, err := ReadList(strings.NewReader(text))
		if err != nil {
			return
		}
		for _, p := range paths {
			if p == "" || p != strings.TrimSpace(p) || strings.HasPrefix(p, "#") || strings.ContainsAny(p, "\n\x00") {
				t.Fatalf("bad path %q", p)
			}
		}
	})
}
