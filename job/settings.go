package job

import "github.com/cclabel/cclabel/job/raster"

// Settings say how a job's images and volumes are labeled and their
// outputs written: the foreground rule, size filters, label type and
// overlay ([raster.Settings]).
type Settings = raster.Settings
