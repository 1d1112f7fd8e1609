-- The purge of unused uploads reads every table once from the read pool, then, holding the
-- writer only for short batches, re-reads the rows written since that scan began so a reference
-- added meanwhile is never lost (upload_purge.go). These indexes make that re-read a range
-- lookup instead of a scan of every profile, account, review and request.
CREATE INDEX profiles_updated ON profiles (update_at);
CREATE INDEX users_updated ON users (update_at);
CREATE INDEX comments_updated ON comments (update_at);
CREATE INDEX blogs_updated ON blogs (update_at);
CREATE INDEX leads_created ON leads (create_at);
CREATE INDEX profile_edits_updated ON profile_edits (update_at);
CREATE INDEX blog_edits_updated ON blog_edits (update_at);
