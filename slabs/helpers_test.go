package slabs

import "math"

func negZero() float64 { return math.Copysign(0, -1) }

func nan() float64 { return math.NaN() }
