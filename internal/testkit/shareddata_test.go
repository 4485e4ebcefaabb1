package testkit

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

func TestLabelsSHA256(t *testing.T) {
	// 1, 2 and 0x01020304 as uint32 little-endian.
	want := sha256.Sum256([]byte{1, 0, 0, 0, 2, 0, 0, 0, 4, 3, 2, 1})
	if got := LabelsSHA256([]uint32{1, 2, 0x01020304}); got != hex.EncodeToString(want[:]) {
		t.Fatalf("one frame: %s", got)
	}
	if got := LabelsSHA256([]uint32{1}, nil, []uint32{2, 0x01020304}); got != hex.EncodeToString(want[:]) {
		t.Fatalf("frames: %s", got)
	}
	big := make([]uint32, 40000) // more than one buffer
	big[39999] = 7
	b := make([]byte, 4*len(big))
	b[4*39999] = 7
	wantBig := sha256.Sum256(b)
	if got := LabelsSHA256(big); got != hex.EncodeToString(wantBig[:]) {
		t.Fatalf("long frame: %s", got)
	}
}

func TestCasesFromSharedData(t *testing.T) {
	all := Cases(t, nil)
	if len(all) == 0 {
		t.Fatal("expected.json has no cases")
	}
	images := Cases(t, func(c Case) bool { return strings.HasPrefix(c.File, "images/") })
	if len(images) == 0 || len(images) >= len(all) {
		t.Fatalf("%d image cases of %d", len(images), len(all))
	}
	for _, c := range all {
		if c.File == "" || len(c.SHA256) != 64 {
			t.Fatalf("incomplete case %+v", c)
		}
	}
}

func TestGraphsFromSharedData(t *testing.T) {
	cases := Graphs(t)
	if len(cases) == 0 {
		t.Fatal("graphs.json has no cases")
	}
	for _, c := range cases {
		if c.File == "" || c.Vertices <= 0 || c.Components <= 0 || c.Largest <= 0 {
			t.Fatalf("incomplete case %+v", c)
		}
	}
}
