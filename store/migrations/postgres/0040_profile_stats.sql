-- Twin of ../0040_profile_stats.sql: owners' statistics, counts per profile, day and kind.
CREATE TABLE profile_stats (
    profile_id BIGINT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    day        TEXT   NOT NULL CHECK (length(day) = 10),
    kind       TEXT   NOT NULL,
    detail     TEXT   NOT NULL DEFAULT '',
    count      BIGINT NOT NULL CHECK (count >= 0),
    PRIMARY KEY (profile_id, day, kind, detail)
);
