package band

import (
	"slices"
	"testing"
)

// TestMoveKeptSlots checks that kept slots move to the end of the band's
// pixels with their parents inside the band, while parents in earlier
// bands, and slots already moved, stay.
func TestMoveKeptSlots(t *testing.T) {
	const width = 4
	for _, tc := range []struct {
		name        string
		first, end  int
		slots       []uint32 // parents of the kept slots, from the first pixel
		want        []uint32 // the band's pixels after the move
		wantSlots   int
		alreadyMove bool
	}{
		// Band of rows 2..4 (pixels 8..15): slots 9..12 (index+1); slot
		// 10 hooked under root 3 of an earlier band, slot 12 under 9.
		{"mixed", 2, 4, []uint32{9, 3, 11, 9}, []uint32{9, 3, 11, 9, 13, 3, 15, 13}, 12, false},
		{"no slots", 2, 4, nil, []uint32{0, 0, 0, 0, 0, 0, 0, 0}, 16, false},
		{"all roots", 0, 2, []uint32{1, 2, 3}, []uint32{1, 2, 3, 0, 0, 6, 7, 8}, 5, false},
		{"moved already", 2, 4, []uint32{9, 3, 11, 9}, nil, 12, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			labels := make([]uint32, 4*width)
			b := &Band{First: tc.first, End: tc.end}
			copy(labels[tc.first*width:], tc.slots)
			if tc.alreadyMove {
				b.MoveSlots(labels, width, len(tc.slots), 0)
				before := slices.Clone(labels)
				b.MoveKeptSlots(labels, width)
				if !slices.Equal(labels, before) || b.Slots != tc.wantSlots {
					t.Fatalf("moved slots changed: %v, was %v (Slots %d)", labels, before, b.Slots)
				}
				return
			}
			b.KeepSlots(width, len(tc.slots), 1)
			if b.Slots != tc.first*width || b.Runs != len(tc.slots) || b.Roots != len(tc.slots)-1 {
				t.Fatalf("kept: Slots %d Runs %d Roots %d", b.Slots, b.Runs, b.Roots)
			}
			b.MoveKeptSlots(labels, width)
			if got := labels[tc.first*width : tc.end*width]; !slices.Equal(got, tc.want) || b.Slots != tc.wantSlots {
				t.Fatalf("after the move: pixels %v, Slots %d; want %v, %d", got, b.Slots, tc.want, tc.wantSlots)
			}
		})
	}
}
