-- The administrators' lists of every profile, newest first (GET /v1/admin/user-technical without
-- a status, and getAllWithSoftDeleted), had no index in their order: at a million profiles each
-- page read and sorted the whole table (1.3 s) and its count read it again (0.7 s). This index
-- is that order and holds delete_at, so the page reads its first rows and the count reads the
-- index instead of the table (0.03 s). Only a new profile or a deletion writes it: reviews and
-- edits change neither column.
CREATE INDEX profiles_newest ON profiles (create_at DESC, id DESC, delete_at);
