package job

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
)

// TestTablesToStdout checks that "label --stats -" and "--contacts -" write
// the same CSV to stdout as to a file, and that "volume" refuses "-" for its
// tables with a usage error rather than failing later.
func TestTablesToStdout(t *testing.T) {
	dir := t.TempDir()
	flat, err := gen.CellsRaster(50, 40, 1, 30, 3)
	if err != nil {
		t.Fatal(err)
	}
	img := filepath.Join(dir, "flat.npy")
	if err := formats.WriteRasterFile(img, flat); err != nil {
		t.Fatal(err)
	}
	l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	multi := Settings{Rule: imagegraph.Rule{Mode: imagegraph.Multilabel}, DType: "auto"}
	for _, table := range []string{"stats", "contacts"} {
		t.Run("label/"+table, func(t *testing.T) {
			file := filepath.Join(dir, table+".csv")
			var stdout bytes.Buffer
			for _, path := range []string{file, "-"} {
				j := Image{Inputs: []string{img}, Settings: multi, Connectivity: 8, Stdout: &stdout}
				if table == "stats" {
					j.Stats = path
				} else {
					j.Contacts = path
				}
				if _, err := j.Run(context.Background(), l, Progress{Quiet: true}); err != nil {
					t.Fatalf("%s %s: %v", table, path, err)
				}
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 || !bytes.Equal(stdout.Bytes(), want) {
				t.Errorf("stdout has %d bytes, the file %d; want the same CSV", stdout.Len(), len(want))
			}
		})
	}
	for _, flag := range []string{"stats", "contacts", "preview"} {
		t.Run("volume/"+flag, func(t *testing.T) {
			j := Volume{Inputs: []string{img}, Settings: multi, Connectivity: 26}
			switch flag {
			case "stats":
				j.Stats = "-"
			case "contacts":
				j.Contacts = "-"
			default:
				j.Preview = "-"
			}
			_, err := j.Run(context.Background(), l, Progress{Quiet: true})
			var u UsageError
			if !errors.As(err, &u) {
				t.Fatalf("got %v, want a usage error", err)
			}
		})
	}
}
