-- Verified businesses and claiming (issue #21).
--
-- A profile is verified when an admin marked it so after its owner answered a code sent to one
-- of its listed mobile numbers. verified_name and verified_phone are what was verified: an edit
-- that changes the name or stops listing that number drops the badge (store/verification.go).
ALTER TABLE profiles ADD COLUMN verified_at INTEGER;
ALTER TABLE profiles ADD COLUMN verified_name TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN verified_phone TEXT NOT NULL DEFAULT '';
-- listed_by is the admin who listed the profile for a business (SPEC.md's register_admin): while
-- the profile is still theirs (user_id = listed_by), the business can claim it.
ALTER TABLE profiles ADD COLUMN listed_by INTEGER REFERENCES users (id);

-- The one verification under way per profile: the code was sent to phone, then confirmed by the
-- owner; the admin's decision removes the row (the audit log keeps the story).
CREATE TABLE profile_verifications (
    profile_id INTEGER PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
    phone      TEXT    NOT NULL,
    admin_id   INTEGER REFERENCES users (id),
    status     TEXT    NOT NULL CHECK (status IN ('sent', 'confirmed')),
    create_at  INTEGER NOT NULL,
    confirm_at INTEGER
);

-- Claims of listings: the claimant proved the listed number with a code; an admin decides.
CREATE TABLE profile_claims (
    id         INTEGER PRIMARY KEY,
    profile_id INTEGER NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users (id),
    from_user  INTEGER REFERENCES users (id),
    phone      TEXT    NOT NULL,
    note       TEXT    NOT NULL DEFAULT '',
    status     TEXT    NOT NULL DEFAULT 'Pending' CHECK (status IN ('Pending', 'Accepted', 'Rejected')),
    admin_id   INTEGER REFERENCES users (id),
    admin_note TEXT    NOT NULL DEFAULT '',
    create_at  INTEGER NOT NULL,
    update_at  INTEGER NOT NULL
);
CREATE INDEX profile_claims_status ON profile_claims (status, id);
CREATE INDEX profile_claims_user ON profile_claims (user_id, id);
-- One waiting claim per claimant and listing, and one accepted claim per listing ever: two admins
-- approving two claims of one listing at once cannot both move it.
CREATE UNIQUE INDEX profile_claims_waiting ON profile_claims (profile_id, user_id) WHERE status = 'Pending';
CREATE UNIQUE INDEX profile_claims_accepted ON profile_claims (profile_id) WHERE status = 'Accepted';
