-- An article's save counts its writer's drafts (the drafts cap, quotas.go). With only
-- blogs_writer (writer_id) and blogs_status (status, release_at) SQLite counted them through
-- blogs_status: every draft of every writer, a scan that grew with the site and held the one
-- writer on each save (under `make loadtest` a third of an article's write time). Keyed by
-- writer then status it is a range of the writer's own rows; the writer-only lookups use its
-- prefix, so blogs_writer goes.
DROP INDEX blogs_writer;
CREATE INDEX blogs_writer_status ON blogs (writer_id, status);
