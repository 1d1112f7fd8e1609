-- In-app notifications: one row per event a user should hear about, written in the same
-- transaction as the event. read_at NULL is unread; the partial index keeps the bell's count cheap.
CREATE TABLE notifications (
    id        INTEGER PRIMARY KEY,
    user_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind      TEXT    NOT NULL CHECK (kind IN ('new_review', 'review_reply', 'moderation', 'new_lead', 'lead_answer')),
    entity    TEXT    NOT NULL,
    entity_id INTEGER NOT NULL,
    title     TEXT    NOT NULL DEFAULT '',
    status    TEXT    NOT NULL DEFAULT '',
    note      TEXT    NOT NULL DEFAULT '',
    create_at INTEGER NOT NULL,
    read_at   INTEGER
);
CREATE INDEX notifications_user ON notifications (user_id, id);
CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;

-- The kinds of SMS notice a user turned off; absent means on.
CREATE TABLE sms_optouts (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind    TEXT    NOT NULL CHECK (kind IN ('new_lead', 'moderation')),
    PRIMARY KEY (user_id, kind)
) WITHOUT ROWID;
