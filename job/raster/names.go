package raster

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel/formats"
)

// Stem is a file's name without its folder and its extension. A double
// extension (.nii.gz, .hdr.gz, .img.gz) goes whole; outputs named after an
// input start with the stem.
func Stem(path string) string {
	base := filepath.Base(strings.TrimRight(path, "/"))
	for _, ext := range []string{".nii.gz", ".hdr.gz", ".img.gz"} {
		if strings.HasSuffix(strings.ToLower(base), ext) {
			return base[:len(base)-len(ext)]
		}
	}
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// ImageOutputsIn names the outputs of several images in the folder dir. It
// names them after the inputs' names less their last extension: stem.png when
// dir is not "", stem.labels.EXT with labelsExt (.npy or .png) and
// stem.stats.EXT with statsExt and stem.contacts.EXT with contactsExt (.csv
// or .json), extensions lower-cased. It fails for "-" (stdin) and for two
// inputs of the same stem.
func ImageOutputsIn(dir string, inputs []string, labelsExt, statsExt, contactsExt string) ([]ImageOutputs, error) {
	stem := func(in string) string { return strings.TrimSuffix(filepath.Base(in), filepath.Ext(in)) }
	return outputsIn(inputs, stem, func(in, stem string) (ImageOutputs, error) {
		if in == "-" {
			return ImageOutputs{}, fmt.Errorf("'-' (stdin) works with a single input only")
		}
		job := ImageOutputs{Input: in, Labels: outputName(dir, stem, ".labels", labelsExt),
			Stats: outputName(dir, stem, ".stats", statsExt), Contacts: outputName(dir, stem, ".contacts", contactsExt)}
		if dir != "" {
			job.Output = filepath.Join(dir, stem+".png")
		}
		return job, nil
	})
}

// VolumeOutputsIn names the outputs of several volumes in the folder dir. It
// names them after their [Stem]: the label volume stem.EXT in the input's
// family ([formats.FamilyExt]: .nii.gz, .nrrd or .npy), stem.preview.EXT with
// previewExt (.png), stem.stats.EXT with statsExt and stem.contacts.EXT with
// contactsExt (.csv or .json), extensions lower-cased. It fails for two
// inputs of the same stem.
func VolumeOutputsIn(dir string, inputs []string, previewExt, statsExt, contactsExt string) ([]VolumeOutputs, error) {
	return outputsIn(inputs, Stem, func(in, stem string) (VolumeOutputs, error) {
		return VolumeOutputs{Input: in, Output: filepath.Join(dir, stem) + formats.FamilyExt(in), Preview: outputName(dir, stem, ".preview", previewExt),
			Stats: outputName(dir, stem, ".stats", statsExt), Contacts: outputName(dir, stem, ".contacts", contactsExt)}, nil
	})
}

// outputName names an output of an input of several: stem+suffix+ext in
// dir, ext lower-cased; "" for no ext.
func outputName(dir, stem, suffix, ext string) string {
	if ext == "" {
		return ""
	}
	return filepath.Join(dir, stem+suffix+strings.ToLower(ext))
}

// outputsIn names every input's outputs from its stem, failing at the
// first input that cannot be named or whose stem an earlier one has.
func outputsIn[J any](inputs []string, stem func(string) string, name func(in, stem string) (J, error)) ([]J, error) {
	var jobs []J
	seen := map[string]string{}
	for _, in := range inputs {
		s := stem(in)
		job, err := name(in, s)
		if err != nil {
			return nil, err
		}
		if prev, dup := seen[s]; dup {
			return nil, fmt.Errorf("%s and %s would write the same outputs", prev, in)
		}
		seen[s] = in
		jobs = append(jobs, job)
	}
	return jobs, nil
}
