package job

import "github.com/cclabel/cclabel/job/raster"

// Settings say how a job's images and volumes are labeled and written. They
// give the foreground rule, size filters, label type and overlay of the
// outputs ([raster.Settings]).
type Settings = raster.Settings
