-- Visitors' reports of abuse on a profile or a comment, for the admins' queue. Reports of one
-- item are grouped in the queue, the most reported first; resolving an item resolves all its
-- open reports at once.
CREATE TABLE reports (
    id          INTEGER PRIMARY KEY,
    entity      TEXT    NOT NULL CHECK (entity IN ('profile', 'comment')),
    entity_id   INTEGER NOT NULL,
    reason      TEXT    NOT NULL,
    description TEXT    NOT NULL DEFAULT '',
    reporter_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    client_ip   TEXT    NOT NULL DEFAULT '',
    status      TEXT    NOT NULL DEFAULT 'Open' CHECK (status IN ('Open', 'Dismissed', 'Actioned')),
    admin_id    INTEGER REFERENCES users (id) ON DELETE SET NULL,
    admin_note  TEXT    NOT NULL DEFAULT '',
    create_at   INTEGER NOT NULL,
    resolve_at  INTEGER
);
CREATE INDEX reports_item ON reports (entity, entity_id, status);
CREATE INDEX reports_status ON reports (status, create_at);
