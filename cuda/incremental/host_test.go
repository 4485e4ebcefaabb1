package incremental

import "testing"

func TestFirstOutOfRange(t *testing.T) {
	us := make([]int32, 100000)
	vs := make([]int32, 100000)
	if i := firstOutOfRange(us, vs, 1); i != -1 {
		t.Fatalf("all in range: %d", i)
	}
	vs[70000], us[90000], vs[5] = 1, -1, 7
	if i := firstOutOfRange(us, vs, 7); i != 5 {
		t.Fatalf("first out of range %d, want 5", i)
	}
	if i := firstOutOfRange(us, vs, 8); i != 90000 {
		t.Fatalf("first out of range %d, want 90000", i)
	}
	if i := firstOutOfRange(nil, nil, 0); i != -1 {
		t.Fatalf("empty: %d", i)
	}
}

func TestCountRoots(t *testing.T) {
	parent := make([]int32, 50000)
	for v := range parent {
		parent[v] = int32(v - v%3)
	}
	if roots, bad := countRoots(parent); roots != 16667 || bad != -1 {
		t.Fatalf("roots %d bad %d, want 16667 -1", roots, bad)
	}
	parent[40000] = 40001
	if _, bad := countRoots(parent); bad != 40000 {
		t.Fatalf("bad %d, want 40000", bad)
	}
	parent[30000] = -1
	if _, bad := countRoots(parent); bad != 30000 {
		t.Fatalf("bad %d, want 30000", bad)
	}
	if roots, bad := countRoots(nil); roots != 0 || bad != -1 {
		t.Fatalf("empty: %d %d", roots, bad)
	}
}
