// Command bench is the load generator and the side-by-side peer runs behind `make bench`
// (DESIGN.md §5). See bench/README.md.
//
//	bench run [flags]      seed N demo profiles, build the index, and measure every workload on
//	                       Kardan, PostgreSQL, the bare in-process harness and the ceiling
//	bench pgserve [flags]  the PostgreSQL peer's HTTP server (started by run)
//	bench ftsserve [flags] the SQLite FTS5 peer's HTTP server (started by run)
//	bench report [flags]   the report written again from a run's JSON, measuring nothing
//	bench ceiling [flags]  the bare net/http ceiling (started by run)
//	bench cluster [flags]  Kardan on PostgreSQL (one replica, two behind a round-robin front)
//	                       beside Kardan on SQLite, reads and writes
//	bench front [flags]    the round-robin front of two replicas (started by run and cluster)
//	bench mixed [flags]    the operations load test: 200 clients, reads and writes, no 5xx, no
//	                       lost write
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})))
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: bench run|report|pgserve|ftsserve|ceiling|mixed|cluster|front [flags]")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	var err error
	switch os.Args[1] {
	case "run":
		err = runBench(ctx, os.Args[2:])
	case "pgserve":
		err = runPGServe(ctx, os.Args[2:])
	case "report":
		err = runReport(ctx, os.Args[2:])
	case "ftsserve":
		err = runFTSServe(ctx, os.Args[2:])
	case "ceiling":
		err = runCeiling(ctx, os.Args[2:])
	case "mixed":
		err = runMixed(ctx, os.Args[2:])
	case "cluster":
		err = runCluster(ctx, os.Args[2:])
	case "front":
		err = runFront(ctx, os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q: want run, report, pgserve, ftsserve, ceiling, mixed, cluster or front", os.Args[1])
	}
	if err != nil {
		slog.Error("bench", "err", err)
		stop()
		os.Exit(1)
	}
}
