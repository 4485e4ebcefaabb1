package job

import (
	"errors"
	"strings"
	"testing"
)

// FuzzFlagValues checks the parsers of --gpus, --order and --measure on
// any text: a value is accepted as it is documented or refused with a
// [UsageError] that quotes it, and never panics.
func FuzzFlagValues(f *testing.F) {
	for _, s := range []string{"", "1", "2", "0,1", " 3 , 1", "64", "65", "-1", "a,b", "first", "size",
		"intensity", "shape", "intensity,shape", " shape ,intensity", "intensity,", ",", "volume"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		usage := func(name string, err error) {
			var u UsageError
			if !errors.As(err, &u) || !strings.Contains(err.Error(), name) {
				t.Fatalf("%s %q: error %v, want a UsageError naming the flag", name, s, err)
			}
		}
		if len(s) < 1<<10 { // a count allocates its list of ordinals
			if gpus, err := ParseGPUs(s); err != nil {
				usage("--gpus", err)
			} else if len(gpus) == 0 || len(gpus) > max(64, strings.Count(s, ",")+1) {
				t.Fatalf("--gpus %q: %d GPUs", s, len(gpus))
			}
		}
		if o, err := ParseOrder(s); err != nil {
			usage("--order", err)
		} else if back, err := ParseOrder(o.String()); err != nil || back != o {
			t.Fatalf("--order %q: %v does not read back (%v)", s, o, err)
		}
		if m, err := ParseMeasures(s); err != nil {
			usage("--measure", err)
		} else {
			for _, name := range strings.Split(s, ",") {
				switch strings.TrimSpace(name) {
				case "intensity":
					if !m.Intensity {
						t.Fatalf("--measure %q: intensity not set", s)
					}
				case "shape":
					if !m.Shape {
						t.Fatalf("--measure %q: shape not set", s)
					}
				case "":
				default:
					t.Fatalf("--measure %q: accepted %q", s, name)
				}
			}
		}
	})
}
