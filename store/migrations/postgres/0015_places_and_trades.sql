-- Twin of ../0015_places_and_trades.sql: counties, county seats, city aliases, category synonyms,
-- and Tabas moved to South Khorasan with its profiles.
CREATE TABLE counties (
    id           BIGINT PRIMARY KEY,
    province_id  BIGINT  NOT NULL REFERENCES provinces (id),
    farsi_name   TEXT    NOT NULL,
    english_name TEXT    NOT NULL,
    slug         TEXT    NOT NULL UNIQUE,
    seat_city_id BIGINT
);
CREATE INDEX counties_province ON counties (province_id);

ALTER TABLE cities ADD COLUMN county_id BIGINT REFERENCES counties (id);
ALTER TABLE cities ADD COLUMN seat BIGINT NOT NULL DEFAULT 0;
ALTER TABLE cities ADD COLUMN aliases TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(aliases));
CREATE INDEX cities_county ON cities (county_id);

ALTER TABLE work_categories ADD COLUMN synonyms TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(synonyms));

UPDATE profiles SET province_id = (SELECT id FROM provinces WHERE slug = 'south-khorasan'),
       key_word = REPLACE(key_word, 'طبس Tabas یزد Yazd', 'طبس Tabas خراسان جنوبی South Khorasan')
 WHERE city_id IN (SELECT c.id FROM cities c JOIN provinces p ON p.id = c.province_id
                    WHERE c.slag = 'tabas' AND p.slug = 'yazd')
   AND EXISTS (SELECT 1 FROM provinces WHERE slug = 'south-khorasan');
INSERT INTO index_outbox (entity, entity_id, create_at)
SELECT 'profile', pr.id, CAST(extract(epoch FROM now()) AS BIGINT)
  FROM profiles pr JOIN cities c ON c.id = pr.city_id JOIN provinces p ON p.id = c.province_id
 WHERE c.slag = 'tabas' AND p.slug = 'yazd' AND EXISTS (SELECT 1 FROM provinces WHERE slug = 'south-khorasan');
UPDATE cities SET province_id = (SELECT id FROM provinces WHERE slug = 'south-khorasan')
 WHERE slag = 'tabas' AND province_id = (SELECT id FROM provinces WHERE slug = 'yazd')
   AND EXISTS (SELECT 1 FROM provinces WHERE slug = 'south-khorasan');
