-- Twin of ../0003_browse_indexes.sql: visibility as a stored generated column (0/1, as in SQLite)
-- and one index per browse order.
ALTER TABLE profiles ADD COLUMN visible BIGINT
    GENERATED ALWAYS AS (CASE WHEN account_status = 'Accepted' AND active = 1 AND display = 1 AND delete_at IS NULL
                              THEN 1 ELSE 0 END) STORED;

CREATE INDEX profiles_visible_best ON profiles (visible, level_score DESC, count_scorer DESC, id);
CREATE INDEX profiles_visible_reviews ON profiles (visible, count_scorer DESC, level_score DESC, id);
CREATE INDEX profiles_visible_newest ON profiles (visible, create_at DESC, id);
CREATE INDEX profiles_visible_city ON profiles (visible, city_id, level_score DESC, count_scorer DESC, id);
CREATE INDEX profiles_visible_province ON profiles (visible, province_id, level_score DESC, count_scorer DESC, id);
CREATE INDEX profiles_visible_field ON profiles (visible, range_worker_id, level_score DESC, count_scorer DESC, id);
