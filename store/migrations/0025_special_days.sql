-- Owners set exceptions to their week on given dates (closed for Nowruz, other hours on a date),
-- and say whether they open on Iran's official holidays (closed on them by default). Both are
-- read with the week whenever an open status is worked out.
ALTER TABLE profiles ADD COLUMN special_days TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(special_days));
ALTER TABLE profiles ADD COLUMN open_on_holidays INTEGER NOT NULL DEFAULT 0;
