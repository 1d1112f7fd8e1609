package store

import (
	"context"
	"database/sql"
)

// queryer is what both the read pool and a transaction can run a query on.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// scanner is what the scan functions read a row from: *sql.Row or *sql.Rows.
type scanner = interface{ Scan(...any) error }

// queryRows runs a query and answers its rows, each read by scan, in order: an empty list, not
// nil, when there are none.
func queryRows[T any](ctx context.Context, q queryer, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// queryIDs runs a query answering one integer column and answers its values in order.
func queryIDs(ctx context.Context, q queryer, query string, args ...any) ([]int64, error) {
	return queryRows(ctx, q, scanID, query, args...)
}

func scanID(sc scanner) (int64, error) {
	var id int64
	err := sc.Scan(&id)
	return id, err
}

// eachIDBatch pages through the ids a keyset query answers and calls fn with each page. The
// query takes the last id seen and the page size, in that order, and must answer ids in
// ascending order: each page starts after the last, so rows written meanwhile are neither
// skipped nor repeated, and no page reads an OFFSET it has to skip.
func (s *Store) eachIDBatch(ctx context.Context, query string, batch int, fn func(ids []int64) error) error {
	var after int64
	for {
		ids, err := queryIDs(ctx, s.read, query, after, batch)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			return nil
		}
		if err := fn(ids); err != nil {
			return err
		}
		after = ids[len(ids)-1]
	}
}
