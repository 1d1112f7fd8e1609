-- Owners' statistics: how often a profile was viewed, shown in search answers and tapped (call,
-- SMS, route per navigation app, share, each social link, website, quote request), counted per
-- day. Only counts: no address, no visitor, nothing personal. The API counts in memory and adds
-- a second's counts here in one transaction (stats/counter.go).
CREATE TABLE profile_stats (
    profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    day        TEXT    NOT NULL CHECK (length(day) = 10), -- YYYY-MM-DD in the operator's zone
    kind       TEXT    NOT NULL,
    detail     TEXT    NOT NULL DEFAULT '', -- the navigation app or social network, else ''
    count      INTEGER NOT NULL CHECK (count >= 0),
    PRIMARY KEY (profile_id, day, kind, detail)
) WITHOUT ROWID;
