package measure

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSizeOrder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sizes []int64
		want  []uint32
	}{
		{"none", nil, []uint32{0}},
		{"one", []int64{5}, []uint32{0, 1}},
		{"decreasing", []int64{9, 4, 1}, []uint32{0, 1, 2, 3}},
		{"increasing", []int64{1, 4, 9}, []uint32{0, 3, 2, 1}},
		{"ties by label", []int64{2, 7, 2, 7, 0}, []uint32{0, 3, 1, 4, 2, 5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := SizeOrder(tc.sizes); !slices.Equal(got, tc.want) {
				t.Fatalf("SizeOrder(%v) = %v, want %v", tc.sizes, got, tc.want)
			}
		})
	}
}

// TestOrderBySizeAgainstNaive numbers random labelings by size and checks
// the result against the definition: sizes decrease with the new label,
// and among equal sizes first occurrences come in memory order.
func TestOrderBySizeAgainstNaive(t *testing.T) {
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 1))
		w, h, d, count := 23, 19, 1+int(seed), 60
		labels := randomLabels[uint32](rng, w, h, d, count, 0.7)
		// Relabel by first occurrence, as the labelers number.
		first := make([]uint32, count+1)
		next := uint32(0)
		for i, v := range labels {
			if v != 0 && first[v] == 0 {
				next++
				first[v] = next
			}
			labels[i] = first[v]
		}
		count = int(next)
		table, err := Compute(labels, w, h, d, count, Options{Contacts: true, Surface: true})
		if err != nil {
			t.Fatal(err)
		}
		sizes := make([]int64, count)
		for k, c := range table.Components {
			sizes[k] = c.Size
		}
		perm := SizeOrder(sizes)
		for _, threads := range []int{1, 3} {
			got := slices.Clone(labels)
			if err := Relabel(got, perm, threads); err != nil {
				t.Fatal(err)
			}
			newSize := make([]int64, count+1)
			firstAt := make([]int, count+1)
			for i, v := range got {
				if v != 0 && newSize[v] == 0 {
					firstAt[v] = i
				}
				newSize[v]++
			}
			for k := 2; k <= count; k++ {
				if newSize[k] > newSize[k-1] || newSize[k] == newSize[k-1] && firstAt[k] < firstAt[k-1] {
					t.Fatalf("seed %d: label %d (size %d, first at %d) after label %d (size %d, first at %d)",
						seed, k, newSize[k], firstAt[k], k-1, newSize[k-1], firstAt[k-1])
				}
			}
			want, _ := Compute(got, w, h, d, count, Options{Contacts: true, Surface: true, Threads: threads})
			renumbered := *table
			renumbered.Components = slices.Clone(table.Components)
			renumbered.Contacts = slices.Clone(table.Contacts)
			if err := renumbered.Renumber(perm); err != nil {
				t.Fatal(err)
			}
			if err := compareTables(&renumbered, want, 0); err != nil {
				t.Fatalf("seed %d: renumbered table differs from the table of the renumbered labels: %v", seed, err)
			}
		}
	}
}

func TestRelabelErrors(t *testing.T) {
	labels := []uint16{0, 1, 3, 2}
	if err := Relabel(labels, []uint32{0, 2, 1}, 2); err == nil || !slices.Equal(labels, []uint16{0, 1, 3, 2}) {
		t.Fatalf("label beyond perm: error %v, labels %v", err, labels)
	}
	if err := Relabel(labels, []uint32{0, 1, 2, 70000}, 1); err == nil {
		t.Fatal("a new label beyond uint16 accepted")
	}
	if err := Relabel(labels, []uint32{0, 3, 1, 2}, 0); err != nil || !slices.Equal(labels, []uint16{0, 3, 2, 1}) {
		t.Fatalf("error %v, labels %v", err, labels)
	}
}

func TestRenumberErrors(t *testing.T) {
	table := func() *Table {
		return &Table{Components: make([]Component, 3), Contacts: []Contact{{A: 1, B: 3, Faces: 1}}}
	}
	for _, tc := range []struct {
		name string
		t    *Table
		perm []uint32
	}{
		{"short", table(), []uint32{0, 1, 2}},
		{"zero first", table(), []uint32{1, 2, 3, 0}},
		{"repeat", table(), []uint32{0, 1, 1, 3}},
		{"beyond", table(), []uint32{0, 1, 2, 4}},
		{"contact beyond", &Table{Components: make([]Component, 1), Contacts: []Contact{{A: 1, B: 2}}}, []uint32{0, 1}},
		{"first voxels short", &Table{Components: make([]Component, 3), First: []int{0, 5}}, []uint32{0, 3, 2, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := *tc.t
			if err := tc.t.Renumber(tc.perm); err == nil {
				t.Fatal("accepted")
			}
			if !slices.Equal(tc.t.Contacts, before.Contacts) {
				t.Fatal("changed on error")
			}
		})
	}
	tab := table()
	if err := tab.Renumber([]uint32{0, 3, 2, 1}); err != nil || tab.Contacts[0] != (Contact{A: 1, B: 3, Faces: 1}) {
		t.Fatalf("error %v, contacts %v", err, tab.Contacts)
	}
}
