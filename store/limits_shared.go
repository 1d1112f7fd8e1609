package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// What the replicas on one PostgreSQL database share that a single process keeps in memory:
// the token buckets of the per-address limits that must not cost a write transaction (the
// searches, the statistics beacons), and the statistics' daily visitor key and once-a-day marks
// (package stats). None of the buckets' or keys' statements takes the writer lock. On SQLite the
// one process's memory is already the whole site's, so these answer ErrNotShared and the
// callers keep their in-memory forms (api/ratelimit.go, package stats). The tables are
// PostgreSQL's migration 0066.

// ErrNotShared is the answer of the shared forms on SQLite, where the process's memory serves.
var ErrNotShared = errors.New("store: shared limits and statistics keys are for PostgreSQL replicas")

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
// outside the writer lock: no WAL flush, and no wait behind the cluster's writes. On SQLite it
// answers ErrNotShared.
func (s *Store) TakeToken(ctx context.Context, kind, key string, rate, burst float64, now time.Time) (bool, time.Duration, error) {
	if s.engine != enginePostgres {
		return false, 0, ErrNotShared
	}
	var tokens float64
	var granted int
	if err := s.write.QueryRowContext(ctx, takeTokenSQL, kind, key, burst, rate, now.UnixMicro()).Scan(&tokens, &granted); err != nil {
		return false, 0, fmt.Errorf("take token %s: %w", kind, err)
	}
	if granted == 1 {
		return true, 0, nil
	}
	return false, time.Duration((1 - tokens) / rate * float64(time.Second)), nil
}

// StatsDayKey answers the statistics' visitor key of day (YYYY-MM-DD), the same for every
// replica: the first to ask for a day's key creates it at random, and deletes the keys of the
// days before. On SQLite it answers ErrNotShared (the counter keeps its key in memory).
func (s *Store) StatsDayKey(ctx context.Context, day string) ([]byte, error) {
	if s.engine != enginePostgres {
		return nil, ErrNotShared
	}
	fresh := make([]byte, 32)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("stats day key: %w", err)
	}
	// Two statements, not a CTE: a statement's snapshot would not see the key another replica
	// committed while this insert waited on it.
	res, err := s.write.ExecContext(ctx, `INSERT INTO stats_keys (day, key) VALUES (?, ?) ON CONFLICT (day) DO NOTHING`, day, fresh)
	if err != nil {
		return nil, fmt.Errorf("stats day key: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		if _, err := s.write.ExecContext(ctx, `DELETE FROM stats_keys WHERE day < ?`, day); err != nil {
			return nil, fmt.Errorf("stats day key: delete old keys: %w", err)
		}
		return fresh, nil
	}
	var key []byte
	if err := s.write.QueryRowContext(ctx, `SELECT key FROM stats_keys WHERE day = ?`, day).Scan(&key); err != nil {
		return nil, fmt.Errorf("stats day key: %w", err)
	}
	return key, nil
}

// StatMark is one counted event with its mark: a keyed hash of (visitor, profile, kind,
// detail) under the day's shared key, the same on every replica for the same visitor.
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

// PruneShared deletes the shared buckets idle for an hour, and the statistics' marks and keys
// of the days before today (YYYY-MM-DD in the operator's time zone), answering how many rows
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
		{`DELETE FROM stats_keys WHERE day < ?`, today},
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
