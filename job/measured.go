package job

import "github.com/cclabel/cclabel/job/raster"

// measuresWhileLabeling reports whether a file's tables are measured as it
// is labeled ([raster.MeasuresWhileLabeling]); gpu says whether its
// labeling goes to the GPU. Tests replace it to take that path on the
// CPU, where the labeler's fallback measures the labels it made.
var measuresWhileLabeling = raster.MeasuresWhileLabeling
