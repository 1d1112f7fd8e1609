-- Twin of ../0072_profiles_newest.sql: the administrators' lists of every profile, newest first.
CREATE INDEX profiles_newest ON profiles (create_at DESC, id DESC, delete_at);
