-- Twin of ../0073_profiles_status_lists.sql: a list of one status reads its count from the index.
DROP INDEX profiles_status;
CREATE INDEX profiles_status ON profiles (account_status, delete_at, create_at);
