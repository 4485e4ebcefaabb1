package imagegraph

import "fmt"

// Stencil returns the neighbour offsets of a connectivity. The
// connectivity is 4 or 8 in 2D, 6, 18 or 26 in 3D; the offsets come in
// increasing memory order (x fastest).
func Stencil(conn int) ([][3]int, error) {
	var order, depth int
	switch conn {
	case 4:
		order, depth = 1, 0
	case 8:
		order, depth = 2, 0
	case 6:
		order, depth = 1, 1
	case 18:
		order, depth = 2, 1
	case 26:
		order, depth = 3, 1
	default:
		return nil, fmt.Errorf("imagegraph: unknown connectivity %d", conn)
	}
	var out [][3]int
	for dz := -depth; dz <= depth; dz++ {
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				n := abs(dx) + abs(dy) + abs(dz)
				if n > 0 && n <= order {
					out = append(out, [3]int{dx, dy, dz})
				}
			}
		}
	}
	return out, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
