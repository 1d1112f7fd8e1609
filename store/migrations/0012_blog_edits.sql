-- With --moderation pre, a writer's rewrite of an accepted article (title, text, summary,
-- picture, tags, categories) waits here while the accepted version stays public (audit L5).
-- edit holds the validated article (title, slug, content, summary, image_url, tag,
-- category_list, release_at); status is Pending or Rejected (with the admin's note).
CREATE TABLE blog_edits (
    blog_id    INTEGER PRIMARY KEY REFERENCES blogs (id) ON DELETE CASCADE,
    edit       TEXT    NOT NULL,
    status     TEXT    NOT NULL DEFAULT 'Pending',
    admin_id   INTEGER REFERENCES users (id) ON DELETE SET NULL,
    admin_note TEXT    NOT NULL DEFAULT '',
    create_at  INTEGER NOT NULL,
    update_at  INTEGER NOT NULL
);
CREATE INDEX blog_edits_pending ON blog_edits (create_at) WHERE status = 'Pending';
