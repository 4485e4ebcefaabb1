package nifti

import (
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/cclabel/cclabel/imagegraph"
)

// TestReadFileStreaming reads plain and gzipped files of several sample
// types through ReadFileStreaming: the first call has done 0, done grows
// to every sample, every call's samples before done are the file's, and
// the volume is the one ReadFile gives.
func TestReadFileStreaming(t *testing.T) {
	dir := t.TempDir()
	for _, s := range []niftiSpec{
		{version: 1, datatype: 2, dims: []int{64, 64, 1100}, gz: true}, // 4.5 MB of uint8: two chunks
		{version: 1, datatype: 2, dims: []int{33, 17, 5}},
		{version: 1, datatype: 4, dims: []int{256, 256, 9}, gz: true}, // int16: 1 MiB chunks
		{version: 2, datatype: 16, dims: []int{70, 30, 40, 2}, bigEndian: true},
	} {
		data, _, samples := niftiBuild(t, s)
		path := filepath.Join(dir, "v.nii")
		if s.gz {
			path += ".gz"
		}
		writeNIfTITestFile(t, path, data)
		want := reflect.ValueOf(samples)
		calls, last := 0, -1
		var seen *imagegraph.Volume
		v, err := ReadFileStreaming(path, func(v *imagegraph.Volume, done int) {
			if calls == 0 && done != 0 {
				t.Errorf("%v: first call with done %d", s.dims, done)
			}
			if done < last {
				t.Errorf("%v: done went from %d to %d", s.dims, last, done)
			}
			calls, last, seen = calls+1, done, v
			got := reflect.ValueOf(niftiConcat(t, v))
			if got.Len() != want.Len() {
				t.Fatalf("%v: %d samples allocated, want %d", s.dims, got.Len(), want.Len())
			}
			// The last 4096 samples announced are in place (all of them
			// would make the test quadratic under the race detector).
			lo := max(0, done-4096)
			if !reflect.DeepEqual(got.Slice(lo, done).Interface(), want.Slice(lo, done).Interface()) {
				t.Fatalf("%v: the samples before %d differ from the file's", s.dims, done)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if calls < 2 || last != want.Len() || seen != v {
			t.Errorf("%v: %d calls, last done %d of %d, same volume %v", s.dims, calls, last, want.Len(), seen == v)
		}
		plain, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(plain.Frames, v.Frames) || plain.Affine != v.Affine || plain.Slope != v.Slope {
			t.Errorf("%v: the streamed volume differs from ReadFile's", s.dims)
		}
	}
}

// TestReadFileStreamingTruncated: a gzipped file cut short fails after
// the samples were announced.
func TestReadFileStreamingTruncated(t *testing.T) {
	data, _, _ := niftiBuild(t, niftiSpec{version: 1, datatype: 2, dims: []int{64, 64, 300}, gz: true})
	path := filepath.Join(t.TempDir(), "cut.nii.gz")
	writeNIfTITestFile(t, path, data[:len(data)-9])
	calls := 0
	_, err := ReadFileStreaming(path, func(*imagegraph.Volume, int) { calls++ })
	if err == nil || calls == 0 {
		t.Errorf("err %v after %d calls; want an error after at least one", err, calls)
	}
}

// TestOpenStreamCloseEarly: closing a gzipped stream before its last
// plane stops its read-ahead goroutine.
func TestOpenStreamCloseEarly(t *testing.T) {
	data, _, _ := niftiBuild(t, niftiSpec{version: 1, datatype: 2, dims: []int{64, 64, 1100}, gz: true})
	path := filepath.Join(t.TempDir(), "v.nii.gz")
	writeNIfTITestFile(t, path, data)
	before := runtime.NumGoroutine()
	for range 3 {
		s, _, err := OpenStream(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Skip(10); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 50 && runtime.NumGoroutine() > before; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after closing three streams early, %d before", n, before)
	}
}
