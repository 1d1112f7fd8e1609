-- Requests for a price (leads): a visitor asks one professional, or up to 5 of one category in a
-- city, at once. The visitor's number is verified (their account's, or an SMS code); each asked
-- profile has its own row in lead_targets with its status and answer. The owner of a profile
-- sees the visitor's number only once the row is answered or done.
CREATE TABLE leads (
    id          INTEGER PRIMARY KEY,
    visitor_id  INTEGER REFERENCES users (id) ON DELETE SET NULL,
    phone       TEXT    NOT NULL,
    category_id INTEGER REFERENCES work_categories (id),
    city_id     INTEGER NOT NULL REFERENCES cities (id),
    lat         REAL,
    long        REAL,
    what        TEXT    NOT NULL,
    when_text   TEXT    NOT NULL DEFAULT '',
    photos      TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(photos)),
    client_ip   TEXT    NOT NULL DEFAULT '',
    create_at   INTEGER NOT NULL
);
CREATE INDEX leads_visitor ON leads (visitor_id, id);
CREATE INDEX leads_phone ON leads (phone, id);

CREATE TABLE lead_targets (
    lead_id    INTEGER NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
    profile_id INTEGER NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    status     TEXT    NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'seen', 'answered', 'declined', 'done')),
    price      INTEGER,
    message    TEXT    NOT NULL DEFAULT '',
    answer_at  INTEGER,
    update_at  INTEGER NOT NULL,
    PRIMARY KEY (lead_id, profile_id)
) WITHOUT ROWID;
CREATE INDEX lead_targets_profile ON lead_targets (profile_id, lead_id);
