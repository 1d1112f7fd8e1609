-- Twin of ../0067_upload_purge_indexes.sql: the purge re-reads rows written since its scan began.
CREATE INDEX profiles_updated ON profiles (update_at);
CREATE INDEX users_updated ON users (update_at);
CREATE INDEX comments_updated ON comments (update_at);
CREATE INDEX blogs_updated ON blogs (update_at);
CREATE INDEX leads_created ON leads (create_at);
CREATE INDEX profile_edits_updated ON profile_edits (update_at);
CREATE INDEX blog_edits_updated ON blog_edits (update_at);
