-- Twin of ../0065_shared_limits.sql (nothing on SQLite). What the replicas must share that one
-- process kept in memory (store/limits_shared.go):

-- The token buckets of the search limit and the statistics beacons, one row per limiter and
-- client key, refilled and taken in one statement without the writer lock. UNLOGGED: a bucket
-- is worth no WAL, no fsync and no copy on a standby; a crash empties the table, which gives
-- every client a full bucket once. Rows idle an hour are pruned by the leader.
CREATE UNLOGGED TABLE limit_buckets (
    kind    TEXT             NOT NULL,
    key     TEXT             NOT NULL,
    tokens  DOUBLE PRECISION NOT NULL,
    at      BIGINT           NOT NULL, -- Unix microseconds of the last refill
    granted SMALLINT         NOT NULL, -- whether the last take found a token (1) or not (0)
    PRIMARY KEY (kind, key)
);
CREATE INDEX limit_buckets_at ON limit_buckets (at);

-- The statistics' visitor key of each day (a keyed hash of address and browser names a
-- visitor), the same for every replica: the first replica to need a day's key creates it at
-- random, and the day's key deletes the older ones. The key alone tells nothing about anyone.
CREATE TABLE stats_keys (
    day TEXT  PRIMARY KEY, -- YYYY-MM-DD in the operator's time zone
    key BYTEA NOT NULL
);

-- Who was counted today, so a visitor is counted once a day per profile and kind whichever
-- replicas they reach: the keyed hash of (visitor, profile, kind, detail), nothing else. UNLOGGED
-- so the marks never reach the WAL, a standby or a base backup; the leader deletes the days
-- before today. A crash of PostgreSQL forgets the day's marks: a visitor may then count twice.
CREATE UNLOGGED TABLE stats_seen (
    day  TEXT   NOT NULL,
    mark BIGINT NOT NULL,
    PRIMARY KEY (day, mark)
);
