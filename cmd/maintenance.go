package cmd

import (
	"context"
	"log/slog"
	"time"

	"kardan/admin"
)

// purgeEvery is how often a running server purges deleted profiles and unused images.
const purgeEvery = 24 * time.Hour

// purgeLoop runs admin.Purge a minute after start and then daily, brings every profile's
// level_score up to the current mean of all scores, and refreshes the query planner's
// statistics so browse plans follow the data as it grows.
func (a *App) purgeLoop(ctx context.Context) {
	storage := a.Storage
	timer := time.NewTimer(time.Minute)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		if !a.Store.IsLeader() {
			timer.Reset(leaderEvery) // not this replica's turn; run soon after it becomes the leader
			continue
		}
		if _, err := admin.Purge(ctx, a.Store, storage); err != nil && ctx.Err() == nil {
			slog.Error("purge", "err", err)
		}
		if n, err := a.Store.RefreshLevelScores(ctx); err != nil && ctx.Err() == nil {
			slog.Error("refresh level scores", "err", err)
		} else if n > 0 {
			slog.Info("level scores refreshed", "profiles", n)
		}
		if err := a.Store.Analyze(ctx); err != nil && ctx.Err() == nil {
			slog.Error("analyze", "err", err)
		}
		timer.Reset(purgeEvery)
	}
}
