package cmd

import (
	"context"
	"log/slog"
	"time"

	"kardan/admin"
	"kardan/media"
)

// purgeEvery is how often a running server purges deleted profiles and unused images.
const purgeEvery = 24 * time.Hour

// purgeLoop runs admin.Purge a minute after start and then daily, and refreshes the query
// planner's statistics so browse plans follow the data as it grows.
func (a *App) purgeLoop(ctx context.Context) {
	storage, err := media.NewLocalDir(a.g.UploadsDir())
	if err != nil {
		slog.Error("purge", "err", err)
		return
	}
	timer := time.NewTimer(time.Minute)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		if _, err := admin.Purge(ctx, a.Store, storage); err != nil && ctx.Err() == nil {
			slog.Error("purge", "err", err)
		}
		if err := a.Store.Analyze(ctx); err != nil && ctx.Err() == nil {
			slog.Error("analyze", "err", err)
		}
		timer.Reset(purgeEvery)
	}
}
