-- A professional can report a request for a price sent to them: reports take the entity 'lead'.
-- SQLite cannot change a CHECK in place, so the table is rebuilt with its rows and indexes.
CREATE TABLE reports_new (
    id          INTEGER PRIMARY KEY,
    entity      TEXT    NOT NULL CHECK (entity IN ('profile', 'comment', 'lead')),
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
INSERT INTO reports_new SELECT id, entity, entity_id, reason, description, reporter_id, client_ip, status, admin_id, admin_note,
    create_at, resolve_at FROM reports;
DROP TABLE reports;
ALTER TABLE reports_new RENAME TO reports;
CREATE INDEX reports_item ON reports (entity, entity_id, status);
CREATE INDEX reports_status ON reports (status, create_at);
