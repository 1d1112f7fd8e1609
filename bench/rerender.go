package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
)

// searchWorkloads are the searchUser workloads that DESIGN.md §5 bounds by latency.
var searchWorkloads = map[string]bool{"text": true, "text_city": true, "category_radius": true, "map_radius": true, "browse_best": true}

// runReport is `bench report`: the report written again from a run's raw JSON (after a change to
// how figures are judged or shown), without measuring anything.
func runReport(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	in := fs.String("json", "bench/results/latest.json", "the run's summary (bench/results/run-*.json or latest.json)")
	out := fs.String("out", "bench/results", "where latest.json, the scale files and the chart go")
	md := fs.String("markdown", "BENCHMARKS.md", "report whose generated parts are rewritten")
	if err := fs.Parse(args); err != nil {
		return err
	}
	raw, err := os.ReadFile(*in)
	if err != nil {
		return err
	}
	var s summary
	if err := json.Unmarshal(raw, &s); err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	for i := range s.Workloads {
		s.Workloads[i].search = searchWorkloads[s.Workloads[i].Name]
	}
	s.Checks = nil
	s.judge()
	s.Goals = goalsOf(&s, latestLoadtest(*out), *out)
	if err := writeJSONFile(*in, &s); err != nil {
		return err
	}
	if err := writeMarkdown(*md, &s); err != nil {
		return err
	}
	return writeScaling(*out, *md, &s)
}
