package ecl_test

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats/graphio"
	"github.com/cclabel/cclabel/gen"
)

// TestMeasureAlgorithms times every CPU algorithm side by side (one run of
// each per round, rounds interleaved, median reported) on generated graphs
// and on the graph files listed in $CCLABEL_MEASURE_FILES (comma-separated).
// It runs only with CCLABEL_MEASURE=1 (the graphs take minutes to make);
// $CCLABEL_MEASURE_ROUNDS sets the rounds (default 7), $CCLABEL_MEASURE_SIZE
// "small" measures smaller generated graphs. This is how ChooseAlgorithm's
// rule was measured.
func TestMeasureAlgorithms(t *testing.T) {
	if os.Getenv("CCLABEL_MEASURE") != "1" {
		t.Skip("set CCLABEL_MEASURE=1 to measure")
	}
	rounds := 7
	if r, err := strconv.Atoi(os.Getenv("CCLABEL_MEASURE_ROUNDS")); err == nil && r > 0 {
		rounds = r
	}
	type graph struct {
		name string
		make func() (*ecl.Graph, error)
	}
	graphs := []graph{
		{"grid1024", func() (*ecl.Graph, error) { return gen.GridGraph(1024, 1024) }},
		{"grid4096", func() (*ecl.Graph, error) { return gen.GridGraph(4096, 4096) }},
		{"random2e23k4", func() (*ecl.Graph, error) { return gen.RandomGraph(1<<23, 4, 1) }},
		{"random2e22k1", func() (*ecl.Graph, error) { return gen.RandomGraph(1<<22, 1, 1) }},
		{"rmat22ef8", func() (*ecl.Graph, error) { return gen.RMATGraph(22, 8, 1) }},
		{"rmat20ef16", func() (*ecl.Graph, error) { return gen.RMATGraph(20, 16, 1) }},
	}
	if os.Getenv("CCLABEL_MEASURE_SIZE") == "small" {
		graphs = []graph{
			{"grid1024", func() (*ecl.Graph, error) { return gen.GridGraph(1024, 1024) }},
			{"random2e20k4", func() (*ecl.Graph, error) { return gen.RandomGraph(1<<20, 4, 1) }},
			{"random2e20k1", func() (*ecl.Graph, error) { return gen.RandomGraph(1<<20, 1, 1) }},
			{"rmat18ef8", func() (*ecl.Graph, error) { return gen.RMATGraph(18, 8, 1) }},
		}
	}
	if files := os.Getenv("CCLABEL_MEASURE_FILES"); files != "" {
		for _, path := range strings.Split(files, ",") {
			graphs = append(graphs, graph{path, func() (*ecl.Graph, error) {
				lg, err := graphio.ReadFile(path, graphio.ReadOptions{})
				if err != nil {
					return nil, err
				}
				return lg.Graph, nil
			}})
		}
	}
	algos := []struct {
		name string
		opts ecl.Options
	}{
		{"ecl", ecl.Options{Algorithm: ecl.ECL}},
		{"eclaf", ecl.Options{Algorithm: ecl.ECLaf}},
		{"afforest-k1", ecl.Options{Algorithm: ecl.Afforest, SampleRounds: 1}},
		{"afforest-k2", ecl.Options{Algorithm: ecl.Afforest, SampleRounds: 2}},
		{"afforest-k3", ecl.Options{Algorithm: ecl.Afforest, SampleRounds: 3}},
		{"afforest-k4", ecl.Options{Algorithm: ecl.Afforest, SampleRounds: 4}},
		{"afforest-adaptive", ecl.Options{Algorithm: ecl.Afforest}},
		{"auto", ecl.Options{Algorithm: ecl.Auto}},
	}
	if os.Getenv("CCLABEL_MEASURE_FOREST") == "1" {
		algos = algos[:0]
		for _, a := range []ecl.Algorithm{ecl.ECL, ecl.Afforest} {
			algos = append(algos, struct {
				name string
				opts ecl.Options
			}{a.String(), ecl.Options{Algorithm: a}}, struct {
				name string
				opts ecl.Options
			}{a.String() + "+forest", ecl.Options{Algorithm: a, SampleRounds: -1}})
		}
	}
	for _, gr := range graphs {
		g, err := gr.make()
		if err != nil {
			t.Fatal(err)
		}
		times := make([][]float64, len(algos))
		want := ecl.ComponentsParallel(g, 0)
		for range rounds {
			for i, a := range algos {
				start := time.Now()
				var res *ecl.Result
				if a.opts.SampleRounds < 0 {
					o := a.opts
					o.SampleRounds = 0
					res, _, err = ecl.SpanningForest(g, o)
				} else {
					res, err = ecl.Components(g, a.opts)
				}
				times[i] = append(times[i], time.Since(start).Seconds()*1e3)
				if err != nil || !slices.Equal(res.Parent, want) {
					t.Fatalf("%s %s: wrong result (%v)", gr.name, a.name, err)
				}
			}
		}
		line := fmt.Sprintf("%-14s n=%-9d arcs=%-10d", gr.name, g.NumVertices(), g.NumEdges())
		for i, a := range algos {
			slices.Sort(times[i])
			line += fmt.Sprintf("  %s %.1f", a.name, times[i][len(times[i])/2])
		}
		fmt.Println(line + " (median ms)")
	}
}
