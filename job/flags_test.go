package job_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/job"
	"github.com/cclabel/cclabel/job/raster"
)

// TestRuleOf checks the foreground rule of every combination of the rule
// flags, and that the excluded ones are usage errors.
func TestRuleOf(t *testing.T) {
	for _, c := range []struct {
		name                string
		binary, has, invert bool
		threshold           float64
		want                cclabel.Rule
		usage               bool
	}{
		{name: "default", want: cclabel.Rule{Mode: cclabel.Multilabel}},
		{name: "binary", binary: true, want: cclabel.Rule{Mode: cclabel.Binary}},
		{name: "threshold", has: true, threshold: 3.5, want: cclabel.Rule{Mode: cclabel.Threshold, Threshold: 3.5}},
		{name: "invert", has: true, threshold: -1, invert: true, want: cclabel.Rule{Mode: cclabel.Threshold, Threshold: -1, Invert: true}},
		{name: "both", binary: true, has: true, usage: true},
		{name: "invert alone", invert: true, usage: true},
		{name: "NaN", has: true, threshold: math.NaN(), usage: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := job.RuleOf(c.binary, c.has, c.threshold, c.invert)
			var ue job.UsageError
			if c.usage {
				if !errors.As(err, &ue) {
					t.Fatalf("err = %v, want a usage error", err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("RuleOf = %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}

// TestParseGPUs checks counts, lists and refusals of --gpus.
func TestParseGPUs(t *testing.T) {
	for _, c := range []struct {
		spec string
		want []int // nil: a usage error
	}{
		{"1", []int{0}}, {"3", []int{0, 1, 2}}, {"0,1", []int{0, 1}}, {"2, 2", []int{2, 2}},
		{"0", nil}, {"65", nil}, {"x", nil}, {"0,-1", nil}, {"0,a", nil},
	} {
		t.Run(c.spec, func(t *testing.T) {
			got, err := job.ParseGPUs(c.spec)
			var ue job.UsageError
			switch {
			case c.want == nil && !errors.As(err, &ue):
				t.Fatalf("ParseGPUs = %v, %v; want a usage error", got, err)
			case c.want != nil && (err != nil || !slices.Equal(got, c.want)):
				t.Fatalf("ParseGPUs = %v, %v; want %v", got, err, c.want)
			}
		})
	}
}

// TestParseOrderAndMeasures checks the values of --order and --measure.
func TestParseOrderAndMeasures(t *testing.T) {
	for _, c := range []struct {
		in   string
		want raster.Order
		ok   bool
	}{{"first", raster.FirstOccurrence, true}, {"size", raster.BySize, true}, {"", raster.FirstOccurrence, true}, {"Size", 0, false}, {"largest", 0, false}} {
		got, err := job.ParseOrder(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseOrder(%q) = %v, %v", c.in, got, err)
		}
		if c.ok && c.in != "" && got.String() != c.in {
			t.Errorf("%v.String() = %q", got, got.String())
		}
	}
	for _, c := range []struct {
		in   string
		want raster.Measures
		ok   bool
	}{
		{"", raster.Measures{}, true}, {"shape", raster.Measures{Shape: true}, true},
		{"intensity, shape", raster.Measures{Intensity: true, Shape: true}, true},
		{"shape,", raster.Measures{}, false}, {"volume", raster.Measures{}, false},
	} {
		got, err := job.ParseMeasures(c.in)
		var ue job.UsageError
		if c.ok && (err != nil || got != c.want) || !c.ok && !errors.As(err, &ue) {
			t.Errorf("ParseMeasures(%q) = %+v, %v", c.in, got, err)
		}
	}
}
