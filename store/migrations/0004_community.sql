-- The comment moderation queue lists comments of every profile newest first, and its "Hidden"
-- view only the few hidden ones: without these it sorts the whole table per page.
CREATE INDEX comments_create ON comments (create_at);
CREATE INDEX comments_hidden ON comments (create_at) WHERE hidden = 1;
