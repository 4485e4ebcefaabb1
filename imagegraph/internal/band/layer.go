package band

import "github.com/cclabel/cclabel/internal/parallel"

// Layering returns the rows of a layer and the number of layers of a grid.
// A layer, the unit that bands hold whole, is a plane of a volume (depth >
// 1) or a row of an image.
func Layering(height, depth int) (rows, layers int) {
	if depth == 1 {
		return 1, height
	}
	return height, depth
}

// LayerSlack returns how far contact reaches between rows at a
// connectivity. same is the reach to the row before in the same layer,
// below to rows y-1, y and y+1 of the layer before (0: face neighbours
// only, 1: diagonal ones too, -1: none).
func LayerSlack(connectivity int) (same int32, below [3]int32) {
	switch connectivity {
	case 4:
		return -1, [3]int32{-1, 0, -1}
	case 8:
		return -1, [3]int32{-1, 1, -1}
	}
	return PlaneSlack(connectivity)
}

// PlaneSlack returns how far contact reaches between rows of a volume.
// same is the reach at a 3D connectivity to the row above in the same
// plane, below to rows y-1, y and y+1 of the plane below (-1: no
// contact).
func PlaneSlack(conn int) (same int32, below [3]int32) {
	switch conn {
	case 6:
		return 0, [3]int32{-1, 0, -1}
	case 18:
		return 1, [3]int32{0, 1, 0}
	}
	return 1, [3]int32{1, 1, 1}
}

// Layers splits layers of rows each into bands of whole layers, at
// least four layers a band.
func Layers(layers, rows, threads int) []Band {
	threads = parallel.ClampThreads(threads, max(1, layers/4))
	bands := make([]Band, threads)
	for b := range bands {
		bands[b].First = layers * b / threads * rows
		bands[b].End = layers * (b + 1) / threads * rows
	}
	return bands
}
