package store

import (
	"context"
	"database/sql"
	"fmt"
)

// levelDrift is how far a profile's level_score may sit from the current prior before a refresh
// rewrites it: small enough not to change a ranking visibly, large enough that a refresh after a
// quiet day touches nothing.
const levelDrift = 0.01

// RefreshLevelScores recomputes every profile's level_score with the current mean of all scores.
// A comment recomputes only its own profile, so the others drift as the mean moves; this runs
// daily and queues for the index only the profiles whose level_score moved by more than
// levelDrift. It answers how many changed.
func (s *Store) RefreshLevelScores(ctx context.Context) (int, error) {
	var n int
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := recountScoreMean(ctx, tx); err != nil {
			return err
		}
		m, err := meanScore(ctx, tx)
		if err != nil {
			return err
		}
		ids, err := queryIDs(ctx, tx, `UPDATE profiles SET level_score = (CAST(?1 AS DOUBLE PRECISION) + score_sum) / (CAST(?2 AS DOUBLE PRECISION) + count_scorer)
			WHERE abs(level_score - (CAST(?1 AS DOUBLE PRECISION) + score_sum) / (CAST(?2 AS DOUBLE PRECISION) + count_scorer)) >
			CAST(?3 AS DOUBLE PRECISION) RETURNING id`, bayesC*m, float64(bayesC), levelDrift)
		if err != nil {
			return err
		}
		now := s.now()
		for _, id := range ids {
			if err := queueIndex(ctx, tx, "profile", id, now); err != nil {
				return err
			}
		}
		n = len(ids)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("refresh level scores: %w", err)
	}
	return n, nil
}
