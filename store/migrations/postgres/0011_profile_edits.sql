-- Twin of ../0011_profile_edits.sql: an owner's edit of an accepted profile waiting for review.
CREATE TABLE profile_edits (
    profile_id BIGINT  PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
    input      TEXT    NOT NULL,
    status     TEXT    NOT NULL DEFAULT 'Pending',
    admin_id   BIGINT REFERENCES users (id) ON DELETE SET NULL,
    admin_note TEXT    NOT NULL DEFAULT '',
    create_at  BIGINT  NOT NULL,
    update_at  BIGINT  NOT NULL
);
CREATE INDEX profile_edits_pending ON profile_edits (create_at) WHERE status = 'Pending';
