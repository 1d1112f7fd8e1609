-- Twin of ../0071_comment_score_index.sql: a profile's comment counts by score and photos.
CREATE INDEX comments_profile_scores ON comments (profile_id, hidden, score, (images <> '[]'));
