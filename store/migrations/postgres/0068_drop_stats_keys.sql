-- The statistics' daily visitor key no longer lives in the database: a key stored next to the
-- day's marks (stats_seen) let anyone reading the live database or a dump test whether an
-- address and browser viewed a profile that day. Each replica now derives the day's key from
-- the cluster's secret in its configuration (serve --stats-secret; package stats), and the keys
-- stored so far go with their table.
DROP TABLE IF EXISTS stats_keys;
