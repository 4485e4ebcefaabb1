package measure

import (
	"math"
	"slices"
	"sort"

	"github.com/cclabel/cclabel/imagegraph"
)

// naive measures labels the slow, obvious way, voxel by voxel and face by
// face, as the oracle of the tests: every face of every voxel is looked at
// from that voxel, the variance takes two passes, and contacts are found
// from both sides and halved.
func naive[L Label](labels []L, w, h, d, count int, opt Options) *Table {
	sp := opt.Spacing
	for a := range sp {
		if sp[a] == 0 {
			sp[a] = 1
		}
	}
	slope := opt.Slope
	if slope == 0 {
		slope = 1
	}
	is3D := d > 1
	value := func(i int) float64 {
		return float64(opt.Intensity.Value(i)*slope) + opt.Inter
	}
	comps := make([]Component, count)
	for k := range comps {
		comps[k].Min = [3]int{math.MaxInt, math.MaxInt, math.MaxInt}
		comps[k].Max = [3]int{-1, -1, -1}
	}
	type pair struct{ a, b L }
	contactFaces := map[pair][3]int64{}
	sums := make([][3]float64, count)
	offsets := [][3]int{{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}}
	if !is3D {
		offsets = offsets[:4]
	}
	area := [3]float64{sp[1] * sp[2], sp[0] * sp[2], sp[0] * sp[1]}
	if !is3D {
		area = [3]float64{sp[1], sp[0], 0}
	}
	at := func(x, y, z int) L {
		if x < 0 || y < 0 || z < 0 || x >= w || y >= h || z >= d {
			return 0
		}
		return labels[x+w*(y+h*z)]
	}
	for z := range d {
		for y := range h {
			for x := range w {
				lab := at(x, y, z)
				if lab == 0 {
					continue
				}
				c := &comps[lab-1]
				c.Size++
				p := [3]int{x, y, z}
				for a := range 3 {
					c.Min[a] = min(c.Min[a], p[a])
					c.Max[a] = max(c.Max[a], p[a])
					sums[lab-1][a] += float64(p[a])
				}
				for _, o := range offsets {
					nb := at(x+o[0], y+o[1], z+o[2])
					axis := 0
					if o[1] != 0 {
						axis = 1
					} else if o[2] != 0 {
						axis = 2
					}
					if nb != lab {
						c.Surface += area[axis]
					}
					if nb != lab && nb != 0 {
						key := pair{min(lab, nb), max(lab, nb)}
						f := contactFaces[key]
						f[axis]++
						contactFaces[key] = f
					}
				}
			}
		}
	}
	for k := range comps {
		c := &comps[k]
		if c.Size == 0 {
			c.Surface = 0
			continue
		}
		n := float64(c.Size)
		for a := range 3 {
			c.Centroid[a] = sums[k][a] / n
		}
		if is3D {
			c.EqDiameter = math.Pow(6*n*sp[0]*sp[1]*sp[2]/math.Pi, 1.0/3)
		} else {
			c.EqDiameter = 2 * math.Sqrt(n*sp[0]*sp[1]/math.Pi)
		}
		if !opt.Surface {
			c.Surface = 0
		}
	}
	if opt.Intensity != nil {
		for k := range comps {
			comps[k].IMin, comps[k].IMax = math.Inf(1), math.Inf(-1)
		}
		for i, lab := range labels {
			if lab == 0 {
				continue
			}
			c := &comps[lab-1]
			v := value(i)
			c.Sum += v
			c.IMin = math.Min(c.IMin, v)
			c.IMax = math.Max(c.IMax, v)
			x, y, z := i%w, i/w%h, i/(w*h)
			c.WCentroid[0] += float64(x) * v
			c.WCentroid[1] += float64(y) * v
			c.WCentroid[2] += float64(z) * v
		}
		for k := range comps {
			c := &comps[k]
			if c.Size == 0 {
				c.IMin, c.IMax = 0, 0
				continue
			}
			c.Mean = c.Sum / float64(c.Size)
			for a := range 3 {
				c.WCentroid[a] /= c.Sum
			}
		}
		for i, lab := range labels {
			if lab != 0 {
				c := &comps[lab-1]
				dv := value(i) - c.Mean
				c.Std += dv * dv
			}
		}
		for k := range comps {
			if c := &comps[k]; c.Size > 0 {
				c.Std = math.Sqrt(c.Std / float64(c.Size))
			}
		}
	}
	t := &Table{Components: comps, First: make([]int, count)}
	for k := range t.First {
		t.First[k] = slices.Index(labels, L(k+1))
	}
	if opt.Contacts {
		for key, f := range contactFaces {
			// Each face was seen from both sides.
			t.Contacts = append(t.Contacts, Contact{
				A: uint32(key.a), B: uint32(key.b),
				Faces: (f[0] + f[1] + f[2]) / 2,
				Area:  (float64(f[0])*area[0] + float64(f[1])*area[1] + float64(f[2])*area[2]) / 2,
			})
		}
		sort.Slice(t.Contacts, func(i, j int) bool {
			ci, cj := t.Contacts[i], t.Contacts[j]
			return ci.A < cj.A || ci.A == cj.A && ci.B < cj.B
		})
	}
	return t
}

// naiveRaster is a convenience for tests: the intensity raster of data.
func naiveRaster[T imagegraph.Sample](w, h, d int, data []T) *imagegraph.Raster {
	r, err := imagegraph.NewRaster(w, h, d, data)
	if err != nil {
		panic(err)
	}
	return r
}
