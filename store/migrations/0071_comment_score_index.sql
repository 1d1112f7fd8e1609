-- comment/get opens with a profile's counts: how many of its comments gave each score, and how
-- many of those carry photos. They were counted from the table, a row read for every comment
-- (a page of a profile with 300 reviews took 190 us, and grew with every review). This index
-- holds what the count reads, in the order it groups by.
CREATE INDEX comments_profile_scores ON comments (profile_id, hidden, score, images <> '[]');
