-- Twin of ../0012_blog_edits.sql: a writer's rewrite of an accepted article waiting for review.
CREATE TABLE blog_edits (
    blog_id    BIGINT  PRIMARY KEY REFERENCES blogs (id) ON DELETE CASCADE,
    edit       TEXT    NOT NULL,
    status     TEXT    NOT NULL DEFAULT 'Pending',
    admin_id   BIGINT REFERENCES users (id) ON DELETE SET NULL,
    admin_note TEXT    NOT NULL DEFAULT '',
    create_at  BIGINT  NOT NULL,
    update_at  BIGINT  NOT NULL
);
CREATE INDEX blog_edits_pending ON blog_edits (create_at) WHERE status = 'Pending';
