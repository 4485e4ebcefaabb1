package job

import (
	"fmt"
	"io"
	"slices"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/job/raster"
)

// File is one image or volume of a run over many files, taken through three
// steps that may run on different goroutines: [File.Read], [File.Label] and
// [File.Write]. Its outputs are the bytes an [Image] or [Volume] job writes.
type File struct {
	// Kind says whether the input is an image or a volume; Image or
	// Volume names its outputs.
	Kind   formats.Kind
	Image  raster.ImageOutputs
	Volume raster.VolumeOutputs

	img    *formats.Image // an image input
	labels *imagegraph.Labels
	narrow []uint16 // an image's labels, when they came as uint16

	vol *imagegraph.Volume // a volume input
	vl  *raster.VolumeLabels

	// release unmaps the input's samples when they were mapped from the
	// file (formats.MapImageFile).
	release func()
}

// Paths returns the file's output paths, the main one first.
func (f *File) Paths() []string {
	all := []string{f.Volume.Output, f.Volume.Preview, f.Volume.Stats}
	if f.Kind == formats.KindImage {
		all = []string{f.Image.Output, f.Image.Labels, f.Image.Stats}
	}
	return slices.DeleteFunc(all, func(p string) bool { return p == "" })
}

// Read maps or reads the input's samples.
func (f *File) Read() (err error) {
	if f.Kind == formats.KindImage {
		f.img, f.release, err = formats.MapImageFile(f.Image.Input, nil)
	} else {
		f.vol, f.release, err = formats.MapVolumeFileStreaming(f.Volume.Input, nil, nil)
	}
	return err
}

// Label labels the read input with l under s and counts the result. It labels
// an image at connectivity imageConn and a volume at volumeConn, into arrays
// from bufs where they fit, and returns its components and voxels.
func (f *File) Label(l *cclabel.Labeler, s Settings, imageConn, volumeConn int, bufs *raster.LabelBuffers) (components, voxels int64, err error) {
	if f.Kind == formats.KindImage {
		label := raster.LabelImageIn
		if raster.NarrowImageWrites(f.Image, s) {
			label = raster.LabelImageNarrow
		}
		res, err := label(l, f.img, s, imageConn, bufs)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: %w", f.Image.Input, err)
		}
		f.labels, f.narrow = res.Labels, res.Narrow
		return int64(res.Labels.Count), int64(f.img.Raster.Len()), nil
	}
	vl, err := raster.LabelVolumeIn(l, f.vol, s, volumeConn, bufs, raster.NarrowWrites(f.Volume, s.DType))
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", f.Volume.Input, err)
	}
	f.vl = vl
	return int64(vl.Total), int64(f.vol.Frames[0].Len()) * int64(len(f.vol.Frames)), nil
}

// Write writes a labeled file's outputs, all of them or none. It then
// releases its samples and hands its label arrays to bufs.
func (f *File) Write(s Settings, bufs *raster.LabelBuffers) error {
	defer f.Release()
	defer f.recycle(bufs)
	return allOrNothing(f.Paths(), func() error {
		if f.Kind == formats.KindImage && f.narrow != nil {
			return raster.WriteImageNarrow(f.Image, f.labels, f.narrow, s)
		}
		if f.Kind == formats.KindImage {
			return raster.WriteImage(f.Image, f.img, f.labels, s, io.Discard)
		}
		return raster.WriteVolume(f.Volume, f.vol, f.vl, s)
	})
}

// Release unmaps the input's samples, if mapped; later calls do nothing.
func (f *File) Release() {
	if f.release != nil {
		f.release()
		f.release = nil
	}
}

// recycle passes a written file's label arrays to bufs and drops the
// file's references to them.
func (f *File) recycle(bufs *raster.LabelBuffers) {
	if f.labels != nil {
		bufs.Put(f.labels.Data)
		bufs.Put16(f.narrow)
		f.labels, f.narrow = nil, nil
	}
	if f.vl != nil {
		for _, fr := range f.vl.Frames {
			bufs.Put(fr)
		}
		bufs.Put16(f.vl.Narrow)
		f.vl = nil
	}
}
