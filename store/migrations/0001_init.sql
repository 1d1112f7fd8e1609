-- Kardan schema, version 1: every entity of SPEC.md §3 and DESIGN.md.
-- Times are Unix seconds (UTC). Lists the API sends as arrays are JSON text columns validated on
-- write; what is filtered or joined on is a real column or a join table.

CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    number_phone  TEXT    NOT NULL UNIQUE,            -- normalised 09xxxxxxxxx
    name          TEXT    NOT NULL DEFAULT '',
    password_hash TEXT    NOT NULL,                   -- argon2id, parameters inside
    profile_image TEXT    NOT NULL DEFAULT '',
    role          TEXT    NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
    create_at     INTEGER NOT NULL,
    update_at     INTEGER NOT NULL
);

CREATE TABLE sessions (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash BLOB    NOT NULL UNIQUE,               -- sha256 of the bearer token
    create_at  INTEGER NOT NULL,
    expire_at  INTEGER NOT NULL,
    revoked_at INTEGER,
    client_ip  TEXT    NOT NULL DEFAULT '',
    user_agent TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE otp_codes (
    id           INTEGER PRIMARY KEY,
    number_phone TEXT    NOT NULL,
    purpose      TEXT    NOT NULL DEFAULT 'signup',
    code_hash    BLOB    NOT NULL,
    tries        INTEGER NOT NULL DEFAULT 0,
    client_ip    TEXT    NOT NULL DEFAULT '',
    create_at    INTEGER NOT NULL,
    expire_at    INTEGER NOT NULL,
    used_at      INTEGER
);
CREATE INDEX otp_codes_phone ON otp_codes (number_phone, create_at);
CREATE INDEX otp_codes_ip ON otp_codes (client_ip, create_at);

-- Counted events for rate limits that must survive a restart (failed logins, contact form, ...).
CREATE TABLE rate_events (
    kind TEXT    NOT NULL,
    key  TEXT    NOT NULL,
    at   INTEGER NOT NULL
);
CREATE INDEX rate_events_key ON rate_events (kind, key, at);

CREATE TABLE provinces (
    id           INTEGER PRIMARY KEY,
    farsi_name   TEXT NOT NULL,
    english_name TEXT NOT NULL,
    slug         TEXT NOT NULL UNIQUE,
    lat          REAL NOT NULL,
    long         REAL NOT NULL
);

CREATE TABLE cities (
    id           INTEGER PRIMARY KEY,
    province_id  INTEGER NOT NULL REFERENCES provinces (id),
    farsi_name   TEXT    NOT NULL,
    english_name TEXT    NOT NULL,
    slag         TEXT    NOT NULL UNIQUE,
    lat          REAL    NOT NULL,
    long         REAL    NOT NULL,
    capital      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX cities_province ON cities (province_id);

-- Fields of work (parent_id NULL, the spec's range_worker) and their categories.
CREATE TABLE work_categories (
    id           INTEGER PRIMARY KEY,
    parent_id    INTEGER REFERENCES work_categories (id),
    farsi_name   TEXT    NOT NULL,
    english_name TEXT    NOT NULL,
    slag         TEXT    NOT NULL UNIQUE,
    favourite    INTEGER NOT NULL DEFAULT 0,
    sort         INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX work_categories_parent ON work_categories (parent_id);

CREATE TABLE uploads (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    upload_key  TEXT    NOT NULL CHECK (upload_key IN ('user', 'userTechnical')),
    address     TEXT    NOT NULL,                     -- public path, /uploads/ab/abcd....jpg
    thumb       TEXT    NOT NULL DEFAULT '',
    sha256      TEXT    NOT NULL,
    mime        TEXT    NOT NULL,
    width       INTEGER NOT NULL,
    height      INTEGER NOT NULL,
    size        INTEGER NOT NULL,
    create_at   INTEGER NOT NULL,
    UNIQUE (user_id, address)
);
CREATE INDEX uploads_address ON uploads (address);

CREATE TABLE profiles (
    id                 INTEGER PRIMARY KEY,
    user_id            INTEGER NOT NULL REFERENCES users (id),
    range_worker_id    INTEGER NOT NULL REFERENCES work_categories (id),
    province_id        INTEGER NOT NULL REFERENCES provinces (id),
    city_id            INTEGER NOT NULL REFERENCES cities (id),
    profile_name       TEXT    NOT NULL,
    slug               TEXT    NOT NULL UNIQUE,
    key_word           TEXT    NOT NULL DEFAULT '',
    work_history_years INTEGER NOT NULL DEFAULT 0,
    descriotion        TEXT    NOT NULL DEFAULT '',
    address            TEXT    NOT NULL DEFAULT '',
    lat                REAL,
    long               REAL,
    account_status     TEXT    NOT NULL DEFAULT 'Pending'
                               CHECK (account_status IN ('Pending', 'Rejected', 'Accepted', 'Blocked')),
    active             INTEGER NOT NULL DEFAULT 1,
    display            INTEGER NOT NULL DEFAULT 1,    -- display status: visible to others
    delete_at          INTEGER,
    score              REAL    NOT NULL DEFAULT 0,
    count_scorer       INTEGER NOT NULL DEFAULT 0,
    score_sum          INTEGER NOT NULL DEFAULT 0,
    level_score        REAL    NOT NULL DEFAULT 0,
    profile_image      TEXT    NOT NULL DEFAULT '',
    logo               TEXT    NOT NULL DEFAULT '',
    services           TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(services)),
    hours_of_work      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(hours_of_work)),
    social_network     TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(social_network)),
    area_working       TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(area_working)),
    portfolio_images   TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(portfolio_images)),
    option             TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(option)),
    list_object        TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(list_object)),
    admin_id           INTEGER REFERENCES users (id),
    admin_note         TEXT    NOT NULL DEFAULT '',
    create_at          INTEGER NOT NULL,
    update_at          INTEGER NOT NULL
);
CREATE INDEX profiles_user ON profiles (user_id);
CREATE INDEX profiles_status ON profiles (account_status, create_at);
CREATE INDEX profiles_city ON profiles (city_id);
CREATE INDEX profiles_field ON profiles (range_worker_id);
CREATE INDEX profiles_deleted ON profiles (delete_at) WHERE delete_at IS NOT NULL;

CREATE TABLE profile_categories (
    profile_id  INTEGER NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    category_id INTEGER NOT NULL REFERENCES work_categories (id),
    PRIMARY KEY (profile_id, category_id)
) WITHOUT ROWID;
CREATE INDEX profile_categories_category ON profile_categories (category_id);

CREATE TABLE comments (
    id            INTEGER PRIMARY KEY,
    profile_id    INTEGER NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL REFERENCES users (id),
    category_list TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(category_list)),
    description   TEXT    NOT NULL,
    score         INTEGER NOT NULL CHECK (score BETWEEN 1 AND 5),
    hidden        INTEGER NOT NULL DEFAULT 0,
    reply         TEXT,
    reply_at      INTEGER,
    admin_id      INTEGER REFERENCES users (id),
    admin_note    TEXT    NOT NULL DEFAULT '',
    create_at     INTEGER NOT NULL,
    update_at     INTEGER NOT NULL,
    UNIQUE (profile_id, user_id)
);
CREATE INDEX comments_profile ON comments (profile_id, create_at);
CREATE INDEX comments_user ON comments (user_id);

CREATE TABLE blogs (
    id          INTEGER PRIMARY KEY,
    writer_id   INTEGER NOT NULL REFERENCES users (id),
    title       TEXT    NOT NULL,
    slug        TEXT    NOT NULL UNIQUE,
    content     TEXT    NOT NULL DEFAULT '',          -- sanitised HTML
    summary     TEXT    NOT NULL DEFAULT '',
    image_url   TEXT    NOT NULL DEFAULT '',
    tag         TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(tag)),
    status      TEXT    NOT NULL DEFAULT 'Draft'
                        CHECK (status IN ('Draft', 'Pending', 'Accepted', 'Rejected', 'Blocked')),
    release_at  INTEGER NOT NULL,
    admin_id    INTEGER REFERENCES users (id),
    admin_note  TEXT    NOT NULL DEFAULT '',
    create_at   INTEGER NOT NULL,
    update_at   INTEGER NOT NULL
);
CREATE INDEX blogs_writer ON blogs (writer_id);
CREATE INDEX blogs_status ON blogs (status, release_at);

CREATE TABLE blog_categories (
    blog_id     INTEGER NOT NULL REFERENCES blogs (id) ON DELETE CASCADE,
    category_id INTEGER NOT NULL REFERENCES work_categories (id),
    PRIMARY KEY (blog_id, category_id)
) WITHOUT ROWID;
CREATE INDEX blog_categories_category ON blog_categories (category_id);

CREATE TABLE critics (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER REFERENCES users (id) ON DELETE SET NULL,
    name         TEXT    NOT NULL DEFAULT '',
    email        TEXT    NOT NULL DEFAULT '',
    number_phone TEXT    NOT NULL DEFAULT '',
    subject      TEXT    NOT NULL DEFAULT '',
    message      TEXT    NOT NULL,
    read         INTEGER NOT NULL DEFAULT 0,
    client_ip    TEXT    NOT NULL DEFAULT '',
    create_at    INTEGER NOT NULL
);
CREATE INDEX critics_create ON critics (create_at);

-- Every change the search index must see, written in the same transaction as the change.
-- AUTOINCREMENT so ids only grow, even after the newest rows are pruned.
CREATE TABLE index_outbox (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    entity    TEXT    NOT NULL CHECK (entity IN ('profile', 'blog')),
    entity_id INTEGER NOT NULL,
    create_at INTEGER NOT NULL
);

-- Admin actions: who (NULL actor = the operator's CLI), what, when, and the optional note.
CREATE TABLE audit_log (
    id          INTEGER PRIMARY KEY,
    actor_id    INTEGER REFERENCES users (id) ON DELETE SET NULL,
    action      TEXT    NOT NULL,
    entity      TEXT    NOT NULL,
    entity_id   INTEGER NOT NULL,
    from_status TEXT    NOT NULL DEFAULT '',
    to_status   TEXT    NOT NULL DEFAULT '',
    note        TEXT    NOT NULL DEFAULT '',
    at          INTEGER NOT NULL
);
CREATE INDEX audit_log_entity ON audit_log (entity, entity_id);
