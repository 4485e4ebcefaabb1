package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/urfave/cli/v3"
)

// benchJob is one measurement of "cclabel bench": a workload on an input
// under a rule and connectivity.
type benchJob struct {
	name  string
	unit  string
	items int64
	run   func(l *cclabel.Labeler) (kernel, total time.Duration, err error)
}

// benchPlan holds the image and volume settings of "cclabel bench".
type benchPlan struct {
	rules  []imagegraph.Rule
	conns  []int // nil: 8 for images, 26 for volumes; every one with all
	all    bool  // --connectivity all (or --modes all without it)
	inputs []string
}

// benchPlanFromFlags reads --modes, --connectivity and --inputs.
func benchPlanFromFlags(cmd *cli.Command) (*benchPlan, error) {
	p := &benchPlan{}
	modes := cmd.String("modes")
	if modes == "all" {
		modes, p.all = "binary,multilabel", true
	}
	for _, m := range strings.Split(modes, ",") {
		r, err := imagegraph.ParseRule(m)
		if err != nil {
			return nil, usagef("bench: --modes %q: %v", m, err)
		}
		p.rules = append(p.rules, r)
	}
	switch c := cmd.String("connectivity"); c {
	case "":
	case "all":
		p.all = true
	default:
		p.all = false
		for _, s := range strings.Split(c, ",") {
			n, err := strconv.Atoi(s)
			if err != nil || imagegraph.ValidConnectivity(n, n > 8) != nil {
				return nil, usagef("bench: --connectivity %q: want 4, 8, 6, 18, 26 or all", s)
			}
			p.conns = append(p.conns, n)
		}
	}
	p.inputs = strings.Split(cmd.String("inputs"), ",")
	for _, in := range p.inputs {
		if in != "random" && in != "blobs" && in != "cells" {
			return nil, usagef("bench: --inputs %q: want random, blobs or cells", in)
		}
	}
	return p, nil
}

// connectivities returns the connectivities measured for 2D or 3D inputs.
func (p *benchPlan) connectivities(is3D bool) []int {
	var out []int
	switch {
	case p.all && is3D:
		return []int{6, 18, 26}
	case p.all:
		return []int{4, 8}
	case p.conns == nil && is3D:
		return []int{26}
	case p.conns == nil:
		return []int{8}
	}
	for _, c := range p.conns {
		if (c > 8) == is3D {
			out = append(out, c)
		}
	}
	return out
}

// jobs generates a workload's inputs and returns its measurements.
func (p *benchPlan) jobs(kind string, full bool) ([]*benchJob, error) {
	switch kind {
	case "graph":
		n := 1 << 20
		if full {
			n = 1 << 22
		}
		g, err := gen.RandomGraph(n, 4, 1)
		if err != nil {
			return nil, err
		}
		return []*benchJob{{name: fmt.Sprintf("graph random %d k=4", n), unit: "arcs", items: int64(g.NumEdges()),
			run: func(l *cclabel.Labeler) (time.Duration, time.Duration, error) {
				res, err := l.LabelGraph(g)
				if err != nil {
					return 0, 0, err
				}
				return res.Timing.Kernel, res.Timing.Total, nil
			}}}, nil
	case "image", "volume":
		w, h, d := 4096, 4096, 1
		if kind == "volume" {
			w, h, d = 256, 256, 256
		}
		if full && kind == "image" {
			w, h = 8192, 8192
		} else if full {
			w, h, d = 512, 512, 512
		}
		var jobs []*benchJob
		dst := make([]uint32, w*h*d) // shared: the jobs run one at a time
		for _, input := range p.inputs {
			r, desc, err := benchRaster(input, w, h, d)
			if err != nil {
				return nil, err
			}
			for _, rule := range p.rules {
				for _, conn := range p.connectivities(d > 1) {
					name := fmt.Sprintf("%s %dx%dx%d %s %s c%d", kind, w, h, d, desc, rule, conn)
					jobs = append(jobs, &benchJob{name: name, unit: "voxels", items: int64(r.Len()),
						run: func(l *cclabel.Labeler) (time.Duration, time.Duration, error) {
							res, err := l.LabelRaster(r, rule, conn, dst)
							if err != nil {
								return 0, 0, err
							}
							return res.Timing.Kernel, res.Timing.Total, nil
						}})
				}
			}
		}
		return jobs, nil
	}
	return nil, usagef("bench: unknown workload %q", kind)
}

// benchRaster generates a synthetic input with seed 1: random (p=0.6 in
// 2D, 0.3 in 3D), blobs (p=0.5) or cells (about 4,000, uint32), and
// describes it.
func benchRaster(input string, w, h, d int) (*imagegraph.Raster, string, error) {
	switch input {
	case "cells":
		r, err := gen.CellsRaster(w, h, d, 4000, 1)
		return r, "cells 4000", err
	case "blobs":
		radius := 4
		if d > 1 {
			radius = 3
		}
		r, err := gen.BlobsRaster(w, h, d, 0.5, radius, 1)
		return r, "blobs p=0.5", err
	}
	p := 0.6
	if d > 1 {
		p = 0.3
	}
	r, err := gen.RandomRaster(w, h, d, p, 1)
	return r, fmt.Sprintf("random p=%.1f", p), err
}
