-- Photos for a signed-out visitor's request for a price. Answering the lead SMS code on
-- lead/verify gives a pass (a random token, kept hashed, bound to the number) that is valid for
-- half an hour: long enough to take two photos with a phone, where the code itself lives two
-- minutes. With it the visitor uploads up to two photos (lead_uploads) and sends one request,
-- which uses it up. A lead's photos are kept through leads.photos; unattached ones go with the
-- purge of unused uploads, like any other. pass_id is set to NULL when old passes are pruned,
-- so the rows stay until the purge deletes their files.
CREATE TABLE lead_passes (
    id           INTEGER PRIMARY KEY,
    number_phone TEXT    NOT NULL,
    token_hash   BLOB    NOT NULL UNIQUE,
    client_ip    TEXT    NOT NULL DEFAULT '',
    create_at    INTEGER NOT NULL,
    expire_at    INTEGER NOT NULL,
    used_at      INTEGER
);

CREATE TABLE lead_uploads (
    id          INTEGER PRIMARY KEY,
    pass_id     INTEGER REFERENCES lead_passes (id) ON DELETE SET NULL,
    address     TEXT    NOT NULL,                     -- public path, /uploads/ab/abcd....jpg
    thumb       TEXT    NOT NULL DEFAULT '',
    sha256      TEXT    NOT NULL,
    mime        TEXT    NOT NULL,
    width       INTEGER NOT NULL,
    height      INTEGER NOT NULL,
    size        INTEGER NOT NULL,
    create_at   INTEGER NOT NULL,
    UNIQUE (pass_id, address)
);
CREATE INDEX lead_uploads_address ON lead_uploads (address);
