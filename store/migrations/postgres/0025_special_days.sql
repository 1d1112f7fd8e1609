-- Twin of ../0025_special_days.sql: owners' exceptions to their week, and holidays.
ALTER TABLE profiles ADD COLUMN special_days TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(special_days));
ALTER TABLE profiles ADD COLUMN open_on_holidays BIGINT NOT NULL DEFAULT 0;
