-- Iran's places in full (issue 17): every official city with its county, the county seats, and
-- the old names of renamed cities as search aliases; search synonyms for the work categories.
-- The rows themselves come from the reference data `kardan seed` (and `serve`) loads; this adds
-- their columns and moves what the corrected data moves.
CREATE TABLE counties (
    id           INTEGER PRIMARY KEY,
    province_id  INTEGER NOT NULL REFERENCES provinces (id),
    farsi_name   TEXT    NOT NULL,
    english_name TEXT    NOT NULL,
    slug         TEXT    NOT NULL UNIQUE,
    seat_city_id INTEGER              -- no reference: a county and its seat are written in one seed
);
CREATE INDEX counties_province ON counties (province_id);

ALTER TABLE cities ADD COLUMN county_id INTEGER REFERENCES counties (id);
ALTER TABLE cities ADD COLUMN seat INTEGER NOT NULL DEFAULT 0;
ALTER TABLE cities ADD COLUMN aliases TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(aliases));
CREATE INDEX cities_county ON cities (county_id);

ALTER TABLE work_categories ADD COLUMN synonyms TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(synonyms));

-- Tabas and its county belong to South Khorasan (since 2013), not Yazd: the city moves and its
-- profiles follow it, their key_word naming the new province, and the index hears of each. Only
-- the shipped row is moved (found by its slug in Yazd); a database without it is left alone.
UPDATE profiles SET province_id = (SELECT id FROM provinces WHERE slug = 'south-khorasan'),
       key_word = REPLACE(key_word, 'طبس Tabas یزد Yazd', 'طبس Tabas خراسان جنوبی South Khorasan')
 WHERE city_id IN (SELECT c.id FROM cities c JOIN provinces p ON p.id = c.province_id
                    WHERE c.slag = 'tabas' AND p.slug = 'yazd')
   AND EXISTS (SELECT 1 FROM provinces WHERE slug = 'south-khorasan');
INSERT INTO index_outbox (entity, entity_id, create_at)
SELECT 'profile', pr.id, CAST(strftime('%s', 'now') AS INTEGER)
  FROM profiles pr JOIN cities c ON c.id = pr.city_id JOIN provinces p ON p.id = c.province_id
 WHERE c.slag = 'tabas' AND p.slug = 'yazd' AND EXISTS (SELECT 1 FROM provinces WHERE slug = 'south-khorasan');
UPDATE cities SET province_id = (SELECT id FROM provinces WHERE slug = 'south-khorasan')
 WHERE slag = 'tabas' AND province_id = (SELECT id FROM provinces WHERE slug = 'yazd')
   AND EXISTS (SELECT 1 FROM provinces WHERE slug = 'south-khorasan');
