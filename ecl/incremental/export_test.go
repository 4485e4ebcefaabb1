package incremental

// SetScalar makes u link edge by edge instead of in lockstep groups, for
// the measurements that compare the two.
func (u *UnionFind) SetScalar(scalar bool) { u.scalar = scalar }
