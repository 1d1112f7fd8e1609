package store

import (
	"context"
	"database/sql"
	"strings"
)

// PlainWrites makes every later write of s run alone (BEGIN, fn, COMMIT), as before group
// commit, so tests compare the two paths.
func PlainWrites(s *Store) {
	s.stopCommitter()
	s.commit = nil
}

// RunGroup runs fns as one batch of the group commit and answers each one's error.
func RunGroup(s *Store, fns ...func(tx *sql.Tx) error) []error {
	var batch []*writeJob
	for _, fn := range fns {
		batch = append(batch, &writeJob{ctx: context.Background(), fn: fn, done: make(chan error, 1)})
	}
	s.runGroup(batch)
	errs := make([]error, len(batch))
	for i, j := range batch {
		errs[i] = <-j.done
	}
	return errs
}

// Exec runs a statement on the writer outside any transaction (a test's own fixture).
func Exec(s *Store, q string, args ...any) error {
	_, err := s.write.Exec(q, args...)
	return err
}

// CommentTargetOf reads profile id as AddComment does (commentTarget, in a write transaction).
func CommentTargetOf(s *Store, id int64) (p *Profile, err error) {
	err = s.tx(context.Background(), func(tx *sql.Tx) error {
		p, err = commentTarget(context.Background(), tx, id)
		return err
	})
	return p, err
}

// IDsInBothWays answers the ids of the profiles among ids read through idsIn and through a
// plain list of placeholders, each sorted.
func IDsInBothWays(s *Store, ids []int64) (viaIn, plain []int64, err error) {
	ctx := context.Background()
	scanID := func(r scanner) (int64, error) {
		var id int64
		err := r.Scan(&id)
		return id, err
	}
	in, args := s.idsIn("p.id", ids)
	if viaIn, err = queryRows(ctx, s.read, scanID, `SELECT p.id FROM profiles p WHERE `+in+` ORDER BY p.id`, args...); err != nil {
		return nil, nil, err
	}
	list := make([]any, len(ids))
	for i, id := range ids {
		list[i] = id
	}
	plain, err = queryRows(ctx, s.read, scanID, `SELECT p.id FROM profiles p WHERE p.id IN (?`+
		strings.Repeat(",?", len(ids)-1)+`) ORDER BY p.id`, list...)
	return viaIn, plain, err
}

// CommentsAtOnce sets how many comments comment/get reads in one statement, forgets which
// profiles have more, and answers whether s has marked a profile as having more.
func CommentsAtOnce(s *Store, n int) (hasMany func(id int64) bool) {
	commentsAtOnce = n
	s.manyComments.mu.Lock()
	s.manyComments.ids = nil
	s.manyComments.mu.Unlock()
	return s.manyComments.has
}
