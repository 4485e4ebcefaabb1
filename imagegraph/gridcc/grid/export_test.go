package grid

// LabelBinaryRows exposes the row-run labeler for every connectivity, so
// that tests check it at 8 and 26 too.
func LabelBinaryRows(shape GridShape, connectivity int, src MaskRows, dst []uint32, threads int) (int, error) {
	if err := shape.validate(connectivity, dst); err != nil {
		return 0, err
	}
	return labelBinaryRows(shape, connectivity, src, dst, threads), nil
}
