-- Twin of ../0005_profile_owners.sql: the owner's name and picture copied into the profile row,
-- kept current by triggers whoever writes.
ALTER TABLE profiles ADD COLUMN owner_name TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN owner_image TEXT NOT NULL DEFAULT '';

UPDATE profiles SET owner_name = u.name, owner_image = u.profile_image
    FROM users u WHERE u.id = profiles.user_id;

CREATE FUNCTION profiles_owner_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT u.name, u.profile_image INTO NEW.owner_name, NEW.owner_image FROM users u WHERE u.id = NEW.user_id;
    RETURN NEW;
END $$;
CREATE TRIGGER profiles_owner_insert BEFORE INSERT ON profiles
    FOR EACH ROW EXECUTE FUNCTION profiles_owner_insert();

CREATE FUNCTION users_owner_copies() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE profiles SET owner_name = NEW.name, owner_image = NEW.profile_image WHERE user_id = NEW.id;
    RETURN NULL;
END $$;
CREATE TRIGGER users_owner_copies AFTER UPDATE OF name, profile_image ON users
    FOR EACH ROW EXECUTE FUNCTION users_owner_copies();
