-- With --moderation pre, an owner's material edit of an accepted profile (name, description,
-- pictures, contacts, ...) waits here while the last accepted version stays public (audit L5).
-- input is the edit as the owner sent it (the createProfile/update body); one edit per profile,
-- the owner's latest. status is Pending (in the queue) or Rejected (kept with the admin's note
-- until the owner edits again).
CREATE TABLE profile_edits (
    profile_id INTEGER PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
    input      TEXT    NOT NULL,
    status     TEXT    NOT NULL DEFAULT 'Pending',
    admin_id   INTEGER REFERENCES users (id) ON DELETE SET NULL,
    admin_note TEXT    NOT NULL DEFAULT '',
    create_at  INTEGER NOT NULL,
    update_at  INTEGER NOT NULL
);
CREATE INDEX profile_edits_pending ON profile_edits (create_at) WHERE status = 'Pending';
