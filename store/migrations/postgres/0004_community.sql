-- Twin of ../0004_community.sql.
CREATE INDEX comments_create ON comments (create_at);
CREATE INDEX comments_hidden ON comments (create_at) WHERE hidden = 1;
