package raster_test

import (
	"reflect"
	"testing"

	"github.com/cclabel/cclabel/job/raster"
)

func TestStem(t *testing.T) {
	for in, want := range map[string]string{
		"a/b.nii.gz":    "b",
		"SCAN.NII.GZ":   "SCAN",
		"s1/t1.hdr.gz":  "t1",
		"x.img.gz":      "x",
		"slices/":       "slices",
		"cells.tif":     "cells",
		"a.tar.bz2":     "a.tar",
		"noext":         "noext",
		"d/v.nrrd":      "v",
		"d.x/vol.ome.t": "vol.ome",
	} {
		if got := raster.Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestImageOutputsIn(t *testing.T) {
	jobs, err := raster.ImageOutputsIn("out", []string{"in/a.png", "b.TIF"}, ".NPY", ".csv", ".JSON")
	if err != nil {
		t.Fatal(err)
	}
	want := []raster.ImageOutputs{
		{Input: "in/a.png", Output: "out/a.png", Labels: "out/a.labels.npy", Stats: "out/a.stats.csv", Contacts: "out/a.contacts.json"},
		{Input: "b.TIF", Output: "out/b.png", Labels: "out/b.labels.npy", Stats: "out/b.stats.csv", Contacts: "out/b.contacts.json"},
	}
	if !reflect.DeepEqual(jobs, want) {
		t.Errorf("got %+v\nwant %+v", jobs, want)
	}
	// Without a folder nothing is written (a --json run over several inputs).
	jobs, err = raster.ImageOutputsIn("", []string{"a.png"}, "", "", "")
	if err != nil || !reflect.DeepEqual(jobs, []raster.ImageOutputs{{Input: "a.png"}}) {
		t.Errorf("no folder: %+v, %v", jobs, err)
	}
	// An image's stem drops its last extension only.
	if jobs, err := raster.ImageOutputsIn("out", []string{"a.nii.gz"}, "", "", ""); err != nil || jobs[0].Output != "out/a.nii.png" {
		t.Errorf("double extension: %+v, %v", jobs, err)
	}
	if _, err := raster.ImageOutputsIn("out", []string{"x/a.png", "y/a.tif"}, "", "", ""); err == nil || err.Error() != "x/a.png and y/a.tif would write the same outputs" {
		t.Errorf("same stem: %v", err)
	}
	if _, err := raster.ImageOutputsIn("out", []string{"a.png", "-"}, "", "", ""); err == nil || err.Error() != "'-' (stdin) works with a single input only" {
		t.Errorf("stdin: %v", err)
	}
}

func TestVolumeOutputsIn(t *testing.T) {
	jobs, err := raster.VolumeOutputsIn("out", []string{"in/a.nii.gz", "b.nrrd", "slices/"}, ".PNG", "", ".csv")
	if err != nil {
		t.Fatal(err)
	}
	want := []raster.VolumeOutputs{
		{Input: "in/a.nii.gz", Output: "out/a.nii.gz", Preview: "out/a.preview.png", Contacts: "out/a.contacts.csv"},
		{Input: "b.nrrd", Output: "out/b.nrrd", Preview: "out/b.preview.png", Contacts: "out/b.contacts.csv"},
		{Input: "slices/", Output: "out/slices.npy", Preview: "out/slices.preview.png", Contacts: "out/slices.contacts.csv"},
	}
	if !reflect.DeepEqual(jobs, want) {
		t.Errorf("got %+v\nwant %+v", jobs, want)
	}
	if _, err := raster.VolumeOutputsIn("out", []string{"s1/a.nii", "s2/a.nii.gz"}, "", ".json", ""); err == nil || err.Error() != "s1/a.nii and s2/a.nii.gz would write the same outputs" {
		t.Errorf("same stem: %v", err)
	}
}
