package main

import (
	"encoding/binary"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/internal/testkit"
)

// writeNIfTI writes a NIfTI-1 file of x*y*z samples of the datatype (data
// little-endian) with the voxel size spacing and the scaling slope, inter.
func writeNIfTI(t *testing.T, path string, x, y, z, datatype, bitpix int, spacing [3]float32, slope, inter float32, data []byte) {
	t.Helper()
	h := niftiHeader(x, y, z, datatype, bitpix, 352)
	for i, s := range spacing {
		binary.LittleEndian.PutUint32(h[80+4*i:], math.Float32bits(s))
	}
	binary.LittleEndian.PutUint32(h[112:], math.Float32bits(slope))
	binary.LittleEndian.PutUint32(h[116:], math.Float32bits(inter))
	if err := os.WriteFile(path, append(h, data...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeNPY writes a C-order .npy array of the descr ('<f4', '<u1', ...).
func writeNPY(t *testing.T, path, descr string, shape []int, data []byte) {
	t.Helper()
	dims := make([]string, len(shape))
	for i, s := range shape {
		dims[i] = strconv.Itoa(s)
	}
	header := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s,), }", descr, strings.Join(dims, ", "))
	for (10+len(header)+1)%64 != 0 {
		header += " "
	}
	header += "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(header)), byte(len(header)>>8))
	if err := os.WriteFile(path, append(append(b, header...), data...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// oracleRow is one component as the tests' naive oracle measures it.
type oracleRow struct {
	size                     int
	sum, mean, min, max, std float64
	wc                       [3]float64
	surface, eqDiameter      float64
}

// oracleContact is one touching pair as the oracle counts it.
type oracleContact struct {
	faces int
	area  float64
}

// measureOracle measures labels (count components, w*h*d, x fastest)
// naively, voxel by voxel: intensity statistics of values (nil: none),
// exposed faces (4- or 6-neighbours, the border included) weighted by the
// spacing, equivalent diameters, and the contacts between labels.
func measureOracle(labels []uint32, count, w, h, d int, values []float64, sp [3]float64) ([]oracleRow, map[[2]uint32]*oracleContact) {
	rows := make([]oracleRow, count+1)
	for k := range rows {
		rows[k].min, rows[k].max = math.Inf(1), math.Inf(-1)
	}
	is3D := d > 1
	face := [3]float64{sp[1] * sp[2], sp[0] * sp[2], sp[0] * sp[1]}
	if !is3D {
		face = [3]float64{sp[1], sp[0], 0}
	}
	contacts := map[[2]uint32]*oracleContact{}
	for z := range d {
		for y := range h {
			for x := range w {
				i := x + w*(y+h*z)
				k := labels[i]
				if k == 0 {
					continue
				}
				r := &rows[k]
				r.size++
				if values != nil {
					v := values[i]
					r.sum += v
					r.min, r.max = min(r.min, v), max(r.max, v)
					r.wc[0] += v * float64(x)
					r.wc[1] += v * float64(y)
					r.wc[2] += v * float64(z)
				}
				for axis := range 3 {
					if axis == 2 && !is3D {
						continue
					}
					for _, step := range []int{-1, 1} {
						p := [3]int{x, y, z}
						p[axis] += step
						size := [3]int{w, h, d}
						if p[axis] < 0 || p[axis] >= size[axis] {
							r.surface += face[axis]
							continue
						}
						n := labels[p[0]+w*(p[1]+h*p[2])]
						if n == k {
							continue
						}
						r.surface += face[axis]
						if n != 0 && step == 1 {
							key := [2]uint32{min(k, n), max(k, n)}
							if contacts[key] == nil {
								contacts[key] = &oracleContact{}
							}
							contacts[key].faces++
							contacts[key].area += face[axis]
						}
					}
				}
			}
		}
	}
	for k := 1; k <= count; k++ {
		r := &rows[k]
		n := float64(r.size)
		if values != nil {
			r.mean = r.sum / n
			for a := range 3 {
				r.wc[a] /= r.sum
			}
		}
		if is3D {
			r.eqDiameter = math.Cbrt(6 * n * sp[0] * sp[1] * sp[2] / math.Pi)
		} else {
			r.eqDiameter = math.Sqrt(4 * n * sp[0] * sp[1] / math.Pi)
		}
	}
	if values != nil { // the population deviation, in a second pass
		for i, k := range labels {
			if k != 0 {
				dv := values[i] - rows[k].mean
				rows[k].std += dv * dv
			}
		}
		for k := 1; k <= count; k++ {
			rows[k].std = math.Sqrt(rows[k].std / float64(rows[k].size))
		}
	}
	return rows, contacts
}

// readCSV reads a CSV file as its header and rows of columns by name.
func readCSV(t *testing.T, path string) ([]string, []map[string]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil || len(all) == 0 {
		t.Fatalf("%s: %v", path, err)
	}
	var rows []map[string]string
	for _, rec := range all[1:] {
		m := map[string]string{}
		for i, name := range all[0] {
			m[name] = rec[i]
		}
		rows = append(rows, m)
	}
	return all[0], rows
}

// near checks that the column col of a row holds want to 1e-9 relative.
func near(t *testing.T, row map[string]string, col string, want float64) {
	t.Helper()
	got, err := strconv.ParseFloat(row[col], 64)
	if err != nil || math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
		t.Fatalf("label %s: %s = %q, want %.17g", row["label"], col, row[col], want)
	}
}

// bySize renumbers labels (count components, numbered by first
// occurrence) by decreasing size, ties by first occurrence.
func bySize(labels []uint32, count int) []uint32 {
	size := make([]int, count+1)
	for _, l := range labels {
		size[l]++
	}
	ranked := make([]int, count)
	for i := range ranked {
		ranked[i] = i + 1
	}
	sort.SliceStable(ranked, func(a, b int) bool { return size[ranked[a]] > size[ranked[b]] })
	to := make([]uint32, count+1)
	for r, l := range ranked {
		to[l] = uint32(r + 1)
	}
	out := make([]uint32, len(labels))
	for i, l := range labels {
		out[i] = to[l]
	}
	return out
}

// checkTables compares a stats CSV (with intensity and shape columns) and a
// contacts CSV with the oracle's measures of labels.
func checkTables(t *testing.T, stats, contactsPath string, labels []uint32, count, w, h, d int, values []float64, sp [3]float64, affine *[3][4]float64) {
	t.Helper()
	want, wantContacts := measureOracle(labels, count, w, h, d, values, sp)
	header, rows := readCSV(t, stats)
	if len(rows) != count {
		t.Fatalf("%d stats rows, want %d", len(rows), count)
	}
	shape := "surface_mm2"
	if d == 1 {
		shape = "perimeter"
	}
	for _, col := range []string{"sum", "mean", "min", "max", "std", "wcx", "wcy", shape, "eq_diameter"} {
		if !slices.Contains(header, col) {
			t.Fatalf("no column %s in %v", col, header)
		}
	}
	for _, row := range rows {
		k, _ := strconv.Atoi(row["label"])
		r := want[k]
		if row["size"] != strconv.Itoa(r.size) {
			t.Fatalf("label %d: size %s, want %d", k, row["size"], r.size)
		}
		near(t, row, "sum", r.sum)
		near(t, row, "mean", r.mean)
		near(t, row, "min", r.min)
		near(t, row, "max", r.max)
		near(t, row, "std", r.std)
		near(t, row, "wcx", r.wc[0])
		near(t, row, "wcy", r.wc[1])
		if d > 1 || affine != nil {
			near(t, row, "wcz", r.wc[2])
		}
		if affine != nil { // the weighted centroid through the affine, as px, py, pz
			for i, col := range []string{"wpx", "wpy", "wpz"} {
				a := affine[i]
				near(t, row, col, a[0]*r.wc[0]+a[1]*r.wc[1]+a[2]*r.wc[2]+a[3])
			}
		}
		near(t, row, shape, r.surface)
		near(t, row, "eq_diameter", r.eqDiameter)
	}
	cheader, crows := readCSV(t, contactsPath)
	if strings.Join(cheader, ",") != "label_a,label_b,faces,area_mm2" || len(crows) != len(wantContacts) {
		t.Fatalf("contacts: header %v, %d rows, want %d", cheader, len(crows), len(wantContacts))
	}
	prev := [2]int{}
	for _, row := range crows {
		a, _ := strconv.Atoi(row["label_a"])
		b, _ := strconv.Atoi(row["label_b"])
		c := wantContacts[[2]uint32{uint32(a), uint32(b)}]
		if c == nil || a >= b || row["faces"] != strconv.Itoa(c.faces) {
			t.Fatalf("contact %d-%d: %v, want %+v", a, b, row, c)
		}
		if [2]int{a, b} == prev || a < prev[0] || a == prev[0] && b < prev[1] {
			t.Fatalf("contacts out of order at %d-%d", a, b)
		}
		prev = [2]int{a, b}
		row["label"] = fmt.Sprintf("%d-%d", a, b)
		near(t, row, "area_mm2", c.area)
	}
}

// TestVolumeMeasures checks --measure intensity,shape with --intensity (a
// scaled float32 NIfTI) and --contacts on an anisotropic NIfTI volume
// against a naive oracle, in both orders and at 6 and 26 connectivity.
func TestVolumeMeasures(t *testing.T) {
	dir := t.TempDir()
	const w, h, d = 11, 9, 7
	sp := [3]float64{0.5, 2, 3}
	rng := rand.New(rand.NewPCG(28, 1))
	keys := make([]uint32, w*h*d)
	labelBytes := make([]byte, 2*len(keys))
	stored := make([]float32, len(keys))
	intBytes := make([]byte, 4*len(keys))
	values := make([]float64, len(keys))
	for i := range keys {
		keys[i] = uint32(rng.IntN(4)) * 7 // 0 and three classes
		binary.LittleEndian.PutUint16(labelBytes[2*i:], uint16(keys[i]))
		stored[i] = float32(rng.NormFloat64() * 10)
		binary.LittleEndian.PutUint32(intBytes[4*i:], math.Float32bits(stored[i]))
		values[i] = float64(stored[i])*2 + 1 // scl_slope 2, scl_inter 1
	}
	in, intensity := filepath.Join(dir, "in.nii"), filepath.Join(dir, "t1.nii")
	spacing := [3]float32{float32(sp[0]), float32(sp[1]), float32(sp[2])}
	writeNIfTI(t, in, w, h, d, 512, 16, spacing, 0, 0, labelBytes)
	writeNIfTI(t, intensity, w, h, d, 16, 32, spacing, 2, 1, intBytes)
	vol, err := formats.ReadVolumeFile(in, nil)
	if err != nil || vol.Spacing != sp {
		t.Fatalf("read back spacing %v, %v", vol.Spacing, err)
	}
	for _, conn := range []int{6, 26} {
		first, count := testkit.BFSLabels(grid.GridShape{Width: w, Height: h, Depth: d}, conn, keys)
		for _, order := range []string{"first", "size"} {
			t.Run(fmt.Sprintf("c%d/%s", conn, order), func(t *testing.T) {
				labels := first
				if order == "size" {
					labels = bySize(first, count)
				}
				stats, contacts, out := filepath.Join(dir, "s.csv"), filepath.Join(dir, "c.csv"), filepath.Join(dir, "l.npy")
				r := runCLI(t, "", "volume", in, "-c", strconv.Itoa(conn), "--order", order, "--measure", "shape",
					"--intensity", intensity, "--stats", stats, "--contacts", contacts, "-o", out, "-q")
				if r.code != 0 {
					t.Fatalf("exit %d: %s", r.code, r.stderr)
				}
				checkTables(t, stats, contacts, labels, count, w, h, d, values, sp, &vol.Affine)
				_, got := readNPYLabels(t, out)
				if !slices.Equal(got, labels) { // (X, Y, Z) Fortran order: x fastest
					t.Fatal("the label volume is not numbered as the statistics")
				}
			})
		}
	}
}

// TestImageMeasures checks an image's statistics under --threshold, whose
// intensity is the input itself, with the perimeter and contacts, against
// the naive oracle; and the JSON forms of both tables.
func TestImageMeasures(t *testing.T) {
	dir := t.TempDir()
	const w, h = 23, 17
	rng := rand.New(rand.NewPCG(28, 2))
	data := make([]byte, w*h)
	keys := make([]uint32, w*h)
	values := make([]float64, w*h)
	for i := range data {
		data[i] = uint8(rng.IntN(256))
		values[i] = float64(data[i])
		if data[i] >= 100 {
			keys[i] = 1
		}
	}
	in := filepath.Join(dir, "in.npy")
	writeNPY(t, in, "|u1", []int{h, w}, data)
	labels, count := testkit.BFSLabels(grid.GridShape{Width: w, Height: h, Depth: 1}, 8, keys)
	stats, contacts := filepath.Join(dir, "s.csv"), filepath.Join(dir, "c.csv")
	r := runCLI(t, "", "label", in, "--threshold", "100", "--measure", "intensity,shape", "--stats", stats, "--contacts", contacts, "--stats-only")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	checkTables(t, stats, contacts, labels, count, w, h, 1, values, [3]float64{1, 1, 1}, nil)

	jstats, jcontacts := filepath.Join(dir, "s.json"), filepath.Join(dir, "c.json")
	if r := runCLI(t, "", "label", in, "--threshold", "100", "-c", "4", "--measure", "intensity,shape", "--stats", jstats, "--contacts", jcontacts); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var srows []map[string]any
	var crows []map[string]any
	for path, v := range map[string]any{jstats: &srows, jcontacts: &crows} {
		b, _ := os.ReadFile(path)
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	labels4, count4 := testkit.BFSLabels(grid.GridShape{Width: w, Height: h, Depth: 1}, 4, keys)
	want, wantContacts := measureOracle(labels4, count4, w, h, 1, values, [3]float64{1, 1, 1})
	if len(srows) != count4 || len(crows) != len(wantContacts) {
		t.Fatalf("%d stats and %d contacts, want %d and %d", len(srows), len(crows), count4, len(wantContacts))
	}
	for _, row := range srows {
		k := int(row["label"].(float64))
		if math.Abs(row["std"].(float64)-want[k].std) > 1e-9*max(1, want[k].std) || row["perimeter"].(float64) != want[k].surface {
			t.Fatalf("label %d: %v, want %+v", k, row, want[k])
		}
	}
	if len(crows) > 0 {
		if _, ok := crows[0]["area_mm2"]; !ok {
			t.Fatalf("contact %v", crows[0])
		}
	}
}

// TestBackgroundThroughCLI: --background V labels as if V were background,
// and the statistics print the components' original values (0 among them).
func TestBackgroundThroughCLI(t *testing.T) {
	dir := t.TempDir()
	const w, h = 13, 11
	rng := rand.New(rand.NewPCG(28, 3))
	data := make([]byte, 2*w*h)
	keys := make([]uint32, w*h)
	for i := range keys {
		v := []int16{0, -5, 9}[rng.IntN(3)]
		binary.LittleEndian.PutUint16(data[2*i:], uint16(v))
		if v != -5 {
			keys[i] = uint32(v + 1) // 0 is a value like any other
		}
	}
	in, out, stats := filepath.Join(dir, "in.npy"), filepath.Join(dir, "l.npy"), filepath.Join(dir, "s.csv")
	writeNPY(t, in, "<i2", []int{h, w}, data)
	r := runCLI(t, "", "label", in, "--background", "-5", "--labels", out, "--stats", stats)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want, count := testkit.BFSLabels(grid.GridShape{Width: w, Height: h, Depth: 1}, 8, keys)
	if _, got := readNPYLabels(t, out); !slices.Equal(got, want) {
		t.Fatal("labels differ from the oracle's")
	}
	_, rows := readCSV(t, stats)
	if len(rows) != count {
		t.Fatalf("%d rows, want %d", len(rows), count)
	}
	for _, row := range rows {
		k, _ := strconv.Atoi(row["label"])
		first := slices.Index(want, uint32(k))
		if v := int16(binary.LittleEndian.Uint16(data[2*first:])); row["value"] != strconv.Itoa(int(v)) {
			t.Fatalf("label %d: value %s, want %d", k, row["value"], v)
		}
	}
}

// TestTableUsageErrors: the table flags that do not fit together are usage
// errors, found before any work.
func TestTableUsageErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.npy")
	writeNPY(t, in, "|u1", []int{3, 4}, make([]byte, 12))
	s := filepath.Join(dir, "s.csv")
	for _, args := range [][]string{
		{"label", in, "--stats-only", "-o", filepath.Join(dir, "x.png"), "--stats", s},
		{"label", in, "--stats-only"},
		{"label", in, "--measure", "shape"},
		{"label", in, "--measure", "intensity", "--stats", s},
		{"label", in, "--measure", "volume", "--stats", s},
		{"label", in, "--background", "3", "--binary", "--stats", s},
		{"label", in, "--order", "largest", "--stats", s},
		{"label", in, "--contacts", filepath.Join(dir, "c.txt")},
		{"label", in, "--stats", s, "--contacts", s},
		{"label", in, "--threshold", "1", "--stats", s, "--intensity", s},
		{"label", in, in, "--intensity", in, "-o", dir, "--stats", ".csv"},
		{"volume", in, "--stats-only", "--preview", filepath.Join(dir, "p.png"), "--stats", s},
		{"batch", in, "-o", dir, "--measure", "intensity", "--stats", ".csv"},
	} {
		if r := runCLI(t, "", args...); r.code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", args, r.code, r.stderr)
		}
	}
	if _, err := os.Stat(s); err == nil {
		t.Error("a statistics file was written")
	}
}

// TestStatsAgainstStatistics: on every image and volume case of the shared
// data (and the 4D example), the statistics, which come from the measuring
// pass, are byte for byte those that imagegraph.Statistics gives the
// written labels, and statistics with measures and contacts start every
// row with the same columns, in both orders; the contacts' labels are
// those of the rows.
func TestStatsAgainstStatistics(t *testing.T) {
	cases := testkit.Cases(t, func(c testkit.Case) bool { return c.Connectivity != 26 || strings.HasPrefix(c.File, "volumes/") })
	cases = append(cases, testkit.Case{File: "volumes/nibabel_example4d.nii.gz", Mode: "threshold:500", Connectivity: 6})
	dir := t.TempDir()
	for i, c := range cases {
		command, labelsFlag := "volume", "-o"
		if strings.HasPrefix(c.File, "images/") {
			command, labelsFlag = "label", "--labels"
		}
		for _, order := range []string{"first", "size"}[:1+i%2] { // size on every other case
			in := sharedData(t, c.File)
			args := append([]string{command, in, "-c", strconv.Itoa(c.Connectivity), "--order", order, "-q"}, modeFlags(c.Mode)...)
			plain, measured := filepath.Join(dir, fmt.Sprintf("%d.csv", i)), filepath.Join(dir, fmt.Sprintf("%d.m.csv", i))
			contacts, labelsPath := filepath.Join(dir, fmt.Sprintf("%d.c.json", i)), filepath.Join(dir, fmt.Sprintf("%d.npy", i))
			if r := runCLI(t, "", append(args, "--stats", plain, labelsFlag, labelsPath, "--dtype", "uint32")...); r.code != 0 {
				t.Fatalf("%s: %s", c.File, r.stderr)
			}
			if r := runCLI(t, "", append(args, "--stats", measured, "--measure", "shape", "--contacts", contacts, "--stats-only")...); r.code != 0 {
				t.Fatalf("%s: %s", c.File, r.stderr)
			}
			a, _ := os.ReadFile(plain)
			if !strings.Contains(c.File, "4d") {
				if want := statisticsOracle(t, command, in, labelsPath); string(a) != want {
					t.Fatalf("%s %s: statistics differ from imagegraph.Statistics':\n%.300s\nwant\n%.300s", c.File, order, a, want)
				}
			}
			b, _ := os.ReadFile(measured)
			al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
			if len(al) != len(bl) || len(al) < 2 {
				t.Fatalf("%s %s: %d and %d lines", c.File, order, len(al), len(bl))
			}
			for k := range al {
				if !strings.HasPrefix(bl[k], al[k]+",") && !(al[k] == "" && bl[k] == "") {
					t.Fatalf("%s %s line %d: %q does not start with %q", c.File, order, k, bl[k], al[k])
				}
			}
			var cs []struct {
				A     uint32 `json:"label_a"`
				B     uint32 `json:"label_b"`
				Faces int64  `json:"faces"`
			}
			raw, _ := os.ReadFile(contacts)
			if err := json.Unmarshal(raw, &cs); err != nil {
				t.Fatalf("%s: contacts: %v", c.File, err)
			}
			for _, x := range cs {
				if x.A == 0 || x.A >= x.B || x.Faces < 1 || int(x.B) > len(al)-2 {
					t.Fatalf("%s: contact %+v", c.File, x)
				}
			}
		}
	}
}

// statisticsOracle returns the statistics CSV that imagegraph.Statistics
// gives the labels in labelsPath (uint32, x fastest) of the input, written
// as the command writes them.
func statisticsOracle(t *testing.T, command, in, labelsPath string) string {
	t.Helper()
	_, data := readNPYLabels(t, labelsPath)
	var b strings.Builder
	if command == "label" {
		img, err := formats.ReadImageFile(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := img.Raster
		stats, err := imagegraph.Statistics(&imagegraph.Labels{Width: r.Width, Height: r.Height, Depth: 1, Data: data, Count: int(slices.Max(data))}, r)
		if err == nil {
			err = formats.WriteStats(&b, stats, "csv", false)
		}
		if err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	vol, err := formats.ReadVolumeFile(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := vol.Frames[0]
	stats, err := imagegraph.Statistics(&imagegraph.Labels{Width: r.Width, Height: r.Height, Depth: r.Depth, Data: data, Count: int(slices.Max(data))}, r)
	if err == nil {
		err = formats.WriteVolumeStats(&b, stats, "csv", vol.Affine)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
