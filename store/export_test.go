package store

import (
	"context"
	"database/sql"
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
