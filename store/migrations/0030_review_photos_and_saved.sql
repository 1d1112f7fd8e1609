-- Up to three photos a reviewer took, stored with the comment (a JSON array of upload paths the
-- author uploaded with uploadKey "comment"), so hiding the comment hides its photos with it.
ALTER TABLE comments ADD COLUMN images TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(images));

-- The businesses an account saved (the heart). A device keeps its own list while signed out and
-- merges it in at sign-in; a deleted account or profile takes its rows with it.
CREATE TABLE saved_profiles (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    profile_id INTEGER NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    create_at  INTEGER NOT NULL,
    PRIMARY KEY (user_id, profile_id)
) WITHOUT ROWID;
CREATE INDEX saved_profiles_profile ON saved_profiles (profile_id);

-- Uploads gain the "comment" key (review photos). SQLite cannot change a CHECK in place, so the
-- table is rebuilt as it was with the wider list; nothing references it.
CREATE TABLE uploads_new (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    upload_key  TEXT    NOT NULL CHECK (upload_key IN ('user', 'userTechnical', 'comment')),
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
INSERT INTO uploads_new (id, user_id, upload_key, address, thumb, sha256, mime, width, height, size, create_at)
    SELECT id, user_id, upload_key, address, thumb, sha256, mime, width, height, size, create_at FROM uploads;
DROP TABLE uploads;
ALTER TABLE uploads_new RENAME TO uploads;
CREATE INDEX uploads_address ON uploads (address);
