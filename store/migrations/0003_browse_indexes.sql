-- Browsing without search text is answered from SQLite (the search index would visit every
-- document to sort them). Visibility is a generated column so that one index per browse order
-- serves both the filter and the order, and the planner is never tempted by the status index.
ALTER TABLE profiles ADD COLUMN visible INTEGER
    GENERATED ALWAYS AS (account_status = 'Accepted' AND active = 1 AND display = 1 AND delete_at IS NULL) VIRTUAL;

CREATE INDEX profiles_visible_best ON profiles (visible, level_score DESC, count_scorer DESC, id);
CREATE INDEX profiles_visible_reviews ON profiles (visible, count_scorer DESC, level_score DESC, id);
CREATE INDEX profiles_visible_newest ON profiles (visible, create_at DESC, id);
CREATE INDEX profiles_visible_city ON profiles (visible, city_id, level_score DESC, count_scorer DESC, id);
CREATE INDEX profiles_visible_province ON profiles (visible, province_id, level_score DESC, count_scorer DESC, id);
CREATE INDEX profiles_visible_field ON profiles (visible, range_worker_id, level_score DESC, count_scorer DESC, id);
