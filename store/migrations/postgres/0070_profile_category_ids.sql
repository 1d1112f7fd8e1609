-- Twin of ../0070_profile_category_ids.sql: the profile's category ids (ascending, as JSON)
-- copied into the profile row, kept current by a trigger whoever writes the categories.
ALTER TABLE profiles ADD COLUMN category_ids TEXT NOT NULL DEFAULT '[]';

UPDATE profiles SET category_ids =
    (SELECT COALESCE(json_group_array(category_id ORDER BY category_id), '[]') FROM profile_categories WHERE profile_id = profiles.id);

CREATE FUNCTION profile_categories_copy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        UPDATE profiles SET category_ids =
            (SELECT COALESCE(json_group_array(category_id ORDER BY category_id), '[]') FROM profile_categories WHERE profile_id = OLD.profile_id)
            WHERE id = OLD.profile_id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        UPDATE profiles SET category_ids =
            (SELECT COALESCE(json_group_array(category_id ORDER BY category_id), '[]') FROM profile_categories WHERE profile_id = NEW.profile_id)
            WHERE id = NEW.profile_id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER profile_categories_copy AFTER INSERT OR UPDATE OR DELETE ON profile_categories
    FOR EACH ROW EXECUTE FUNCTION profile_categories_copy();
