package batch

import (
	"bytes"
	"reflect"
	"strconv"
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

// FuzzParseShard checks that an accepted shard is valid and that its
// String form reads back the same.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/1", "2/3", "3/3", "-1/2", "a/b", " 1 / 4 ", "1/2/3", "+1/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := ParseShard(spec)
		if err != nil {
			return
		}
		if s.Validate() != nil {
			t.Fatalf("%q: accepted invalid shard %v", spec, s)
		}
		if back, err := ParseShard(s.String()); err != nil || back != s {
			t.Fatalf("%q: %v reads back as %v, %v", spec, s, back, err)
		}
	})
}

// FuzzParseBytes checks that an accepted size is positive and that its
// plain byte count reads back the same.
func FuzzParseBytes(f *testing.F) {
	for _, s := range []string{"2G", "512MiB", "1.5g", "100B", "2iB", "0", "1e30T", " 3 kb "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		n, err := ParseBytes(text)
		if err != nil {
			return
		}
		if n <= 0 {
			t.Fatalf("%q: accepted %d bytes", text, n)
		}
		if back, err := ParseBytes(strconv.FormatInt(n, 10)); err != nil || back != n {
			t.Fatalf("%q: %d reads back as %d, %v", text, n, back, err)
		}
	})
}
