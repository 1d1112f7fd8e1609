package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// What the replicas on one PostgreSQL database share that a single process keeps in memory:
// the token buckets of the per-address limits that must not cost a write transaction (the
// searches, the statistics beacons), and the statistics' once-a-day marks (package stats). None
// of the buckets' statements takes the writer lock. The statistics' daily visitor key is never
// here: a key next to the marks would let a reader of the database (or of a dump) test whether
// an address and browser viewed a profile today, so each replica derives it from the cluster's
// secret in its configuration (serve --stats-secret). On SQLite the one process's memory is
// already the whole site's, so these answer ErrNotShared and the callers keep their in-memory
// forms (api/ratelimit.go, package stats). The tables are PostgreSQL's migration 0066 (0068
// dropped its stats_keys).

// ErrNotShared is the answer of the shared forms on SQLite, where the process's memory serves.
var ErrNotShared = errors.New("store: shared limits and statistics marks are for PostgreSQL replicas")

// bucketRefilled is a bucket's tokens before a take: the row's old tokens (b.tokens, the old
// row in ON CONFLICT's SET) refilled for the microseconds since its last refill, capped at the
// burst. The arithmetic is the in-memory limiter's step by step (elapsed microseconds as a
// double, divided by 1e6, times the rate, added, capped), so both answer alike for the same
// times (api TestSharedBucketMatchesMemory). Time only moves forward: a replica whose clock is
// behind the last refill neither refills nor winds the bucket back.
const bucketRefilled = `LEAST(CAST(?3 AS DOUBLE PRECISION),
	b.tokens + CAST(GREATEST(?5 - b.at, 0) AS DOUBLE PRECISION) / 1000000 * CAST(?4 AS DOUBLE PRECISION))`

// takeTokenSQL refills and takes in one statement: ON CONFLICT's row lock serialises the takes
// of one key across replicas and nothing else. A new key starts full, less the token taken.
const takeTokenSQL = `INSERT INTO limit_buckets AS b (kind, key, tokens, at, granted)
	VALUES (?1, ?2, CAST(?3 AS DOUBLE PRECISION) - 1, ?5, 1)
	ON CONFLICT (kind, key) DO UPDATE SET
		tokens = CASE WHEN ` + bucketRefilled + ` >= 1 THEN ` + bucketRefilled + ` - 1 ELSE ` + bucketRefilled + ` END,
		granted = CASE WHEN ` + bucketRefilled + ` >= 1 THEN 1 ELSE 0 END,
		at = GREATEST(b.at, ?5)
	RETURNING tokens, granted`

// TakeToken takes one token from the shared bucket of (kind, key), which holds up to burst
// tokens and refills at rate a second, at the time now. It answers whether a token was there
// and, when not, how long until one is. It is one autocommitted statement on an UNLOGGED table,
// outside the writer lock: no WAL flush, and no wait behind the cluster's writes, on a pool of
// its own (limitConns), so a flood holding the write pool does not starve it. On SQLite it
// answers ErrNotShared.
func (s *Store) TakeToken(ctx context.Context, kind, key string, rate, burst float64, now time.Time) (bool, time.Duration, error) {
	if s.engine != enginePostgres {
		return false, 0, ErrNotShared
	}
	var tokens float64
	var granted int
	if err := s.limits.QueryRowContext(ctx, takeTokenSQL, kind, key, burst, rate, now.UnixMicro()).Scan(&tokens, &granted); err != nil {
		return false, 0, fmt.Errorf("take token %s: %w", kind, err)
	}
	if granted == 1 {
		return true, 0, nil
	}
	return false, time.Duration((1 - tokens) / rate * float64(time.Second)), nil
}

// StatMark is one counted event with its mark: a hash of (visitor, profile, kind, detail), the
// visitor keyed by the day's key, the same on every replica that shares the cluster's secret.
type StatMark struct {
	ProfileID int64
	Day       string
	Kind      string
	Detail    string
	Mark      int64
}

// AddStatsMarked adds the events to the daily statistics, each only if no replica has added its
// mark (on its day) yet: the marks are inserted with ON CONFLICT DO NOTHING and only the rows
// inserted are counted, in the one statement, so a retried flush or two replicas flushing the
// same visitor count it once. A mark of a profile purged since is recorded but not counted.
// PostgreSQL only (ErrNotShared on SQLite, whose one counter needs no marks: AddStats).
func (s *Store) AddStatsMarked(ctx context.Context, marks []StatMark) error {
	if s.engine != enginePostgres {
		return ErrNotShared
	}
	if len(marks) == 0 {
		return nil
	}
	ids, days, kinds, details, hashes := make([]int64, len(marks)), make([]string, len(marks)),
		make([]string, len(marks)), make([]string, len(marks)), make([]int64, len(marks))
	for i, m := range marks {
		ids[i], days[i], kinds[i], details[i], hashes[i] = m.ProfileID, m.Day, m.Kind, m.Detail, m.Mark
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `WITH m AS (
				SELECT DISTINCT ON (day, mark) * FROM unnest(?1::bigint[], ?2::text[], ?3::text[], ?4::text[], ?5::bigint[])
					AS m(profile_id, day, kind, detail, mark)
			), fresh AS (
				INSERT INTO stats_seen (day, mark) SELECT day, mark FROM m ON CONFLICT DO NOTHING RETURNING day, mark
			)
			INSERT INTO profile_stats (profile_id, day, kind, detail, count)
				SELECT m.profile_id, m.day, m.kind, m.detail, COUNT(*) FROM m JOIN fresh USING (day, mark)
				WHERE EXISTS (SELECT 1 FROM profiles WHERE id = m.profile_id)
				GROUP BY m.profile_id, m.day, m.kind, m.detail
			ON CONFLICT (profile_id, day, kind, detail) DO UPDATE SET count = profile_stats.count + excluded.count`,
			ids, days, kinds, details, hashes)
		if err != nil {
			return fmt.Errorf("add marked stats: %w", err)
		}
		return nil
	})
}

// bucketIdle is how long a shared bucket may stay untouched before PruneShared drops it: a
// bucket refills fully within burst/rate seconds (a few seconds for the searches and beacons),
// so forgetting it then changes nothing.
const bucketIdle = time.Hour

// PruneShared deletes the shared buckets idle for an hour, and the statistics' marks of the
// days before today (YYYY-MM-DD in the operator's time zone), answering how many rows
// went. The leader runs it hourly; outside the writer lock. Nothing to do on SQLite.
func (s *Store) PruneShared(ctx context.Context, today string) (int64, error) {
	if s.engine != enginePostgres {
		return 0, nil
	}
	var total int64
	for _, q := range []struct {
		sql string
		arg any
	}{
		{`DELETE FROM limit_buckets WHERE at < ?`, s.Now().Add(-bucketIdle).UnixMicro()},
		{`DELETE FROM stats_seen WHERE day < ?`, today},
	} {
		res, err := s.write.ExecContext(ctx, q.sql, q.arg)
		if err != nil {
			return total, fmt.Errorf("prune shared: %w", err)
		}
		n, _ := res.RowsAffected()
		total += n
	}
	return total, nil
}
