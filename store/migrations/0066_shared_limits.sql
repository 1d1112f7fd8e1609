-- Nothing on SQLite: one process serves the whole site, so its in-memory token buckets and its
-- statistics' visitor key and once-a-day memory already hold for the site (api/ratelimit.go,
-- package stats). The PostgreSQL twin creates the tables that let N replicas share them.
SELECT 1;
