-- Twin of ../0069_blogs_writer_status.sql: an article's save counts its writer's drafts.
DROP INDEX blogs_writer;
CREATE INDEX blogs_writer_status ON blogs (writer_id, status);
