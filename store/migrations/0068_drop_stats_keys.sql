-- Nothing on SQLite: its statistics' visitor key always lived only in the process's memory. The
-- PostgreSQL twin drops stats_keys, the daily keys replicas shared through the database until
-- the key came from the cluster's secret in the configuration (serve --stats-secret).
SELECT 1;
