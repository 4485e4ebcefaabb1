package main

import (
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/labelfile"
)

// inputFiles and outputFile name a command's inputs and outputs for
// checkClobber.
func inputFiles(paths ...string) []atomicfile.Named {
	files := make([]atomicfile.Named, len(paths))
	for i, p := range paths {
		files[i] = atomicfile.Named{Role: "input", Path: p}
	}
	return files
}

func outputFile(role, path string) atomicfile.Named { return atomicfile.Named{Role: role, Path: path} }

// checkClobber fails with a usage error, before any work is done, when an
// output would replace an input or another output (atomicfile.CheckDistinct).
func checkClobber(command string, inputs, outputs []atomicfile.Named) error {
	if err := atomicfile.CheckDistinct(inputs, outputs); err != nil {
		return usagef("%s: %v", command, err)
	}
	return nil
}

// imageOutputFiles and volumeOutputFiles name a job's outputs by flag.
func imageOutputFiles(jobs []labelfile.ImageOutputs) []atomicfile.Named {
	var files []atomicfile.Named
	for _, j := range jobs {
		files = append(files, outputFile("-o", j.Output), outputFile("--labels", j.Labels), outputFile("--stats", j.Stats))
	}
	return files
}

func volumeOutputFiles(jobs []labelfile.VolumeOutputs) []atomicfile.Named {
	var files []atomicfile.Named
	for _, j := range jobs {
		files = append(files, outputFile("-o", j.Output), outputFile("--labels", j.Labels), outputFile("--preview", j.Preview), outputFile("--stats", j.Stats))
	}
	return files
}

// allOrNothing runs write, which writes the given outputs, so that they
// appear together when it succeeds and none of them when it fails or the
// process is interrupted (atomicfile.Group).
func allOrNothing(outputs []string, write func() error) error {
	g, err := atomicfile.NewGroup(outputs...)
	if err != nil {
		return err
	}
	defer g.Abort()
	if err := write(); err != nil {
		return err
	}
	return g.Commit()
}
