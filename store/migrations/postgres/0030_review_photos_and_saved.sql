-- Twin of ../0030_review_photos_and_saved.sql: review photos, saved businesses, and the
-- "comment" upload key (PostgreSQL changes the CHECK in place; SQLite rebuilds the table).
ALTER TABLE comments ADD COLUMN images TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(images));

CREATE TABLE saved_profiles (
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    profile_id BIGINT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    create_at  BIGINT NOT NULL,
    PRIMARY KEY (user_id, profile_id)
);
CREATE INDEX saved_profiles_profile ON saved_profiles (profile_id);

ALTER TABLE uploads DROP CONSTRAINT uploads_upload_key_check;
ALTER TABLE uploads ADD CONSTRAINT uploads_upload_key_check CHECK (upload_key IN ('user', 'userTechnical', 'comment'));
