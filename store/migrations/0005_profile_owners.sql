-- A public answer shows each profile's owner: their name and picture. Keeping copies of the two
-- in the profile row spares a public read its join into users, a B-tree lookup per profile (a
-- sixth of reading a page of profiles). Triggers keep the copies current whoever writes, this
-- binary or a tool, so no write path has to remember them. (No path moves a profile to another
-- owner.)
ALTER TABLE profiles ADD COLUMN owner_name TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN owner_image TEXT NOT NULL DEFAULT '';

UPDATE profiles SET owner_name = u.name, owner_image = u.profile_image
    FROM users u WHERE u.id = profiles.user_id;

CREATE TRIGGER profiles_owner_insert AFTER INSERT ON profiles
BEGIN
    UPDATE profiles SET owner_name = u.name, owner_image = u.profile_image
        FROM users u WHERE u.id = NEW.user_id AND profiles.id = NEW.id;
END;

CREATE TRIGGER users_owner_copies AFTER UPDATE OF name, profile_image ON users
BEGIN
    UPDATE profiles SET owner_name = NEW.name, owner_image = NEW.profile_image WHERE user_id = NEW.id;
END;
