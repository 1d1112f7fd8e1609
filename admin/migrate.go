package admin

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// MoveTarget is the database a migration copies into: a handle that may write, and whether it
// speaks PostgreSQL (placeholders $n, identity sequences) rather than SQLite. Its schema must be
// in place already (the store's own migrations, by opening it once).
type MoveTarget struct {
	DB       *sql.DB
	Postgres bool
	// Replace lets the copy clear a target that already holds accounts or profiles.
	Replace bool
}

// TableSum is what a table holds, as the migration verifies it on both sides: its rows and a
// checksum over every value of every row that does not depend on the rows' order.
type TableSum struct {
	Table string
	Rows  int64
	Sum   string
}

// skippedTables are kept by each database for itself: its schema history.
var skippedTables = map[string]bool{"migrations": true}

// ErrTargetHoldsData is a target database that already holds someone's data.
var ErrTargetHoldsData = errors.New("the target database already holds accounts or profiles")

// CopyDatabase copies every table of the SQLite file at snapshot (a consistent copy, never the
// live file) into dst in one transaction, parents before children, and then verifies both sides
// table by table. A failure leaves dst as it was. It answers the verified sums.
func CopyDatabase(ctx context.Context, snapshot string, dst MoveTarget) ([]TableSum, error) {
	src, err := openSnapshot(snapshot)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	tables, err := sqliteTables(ctx, src)
	if err != nil {
		return nil, err
	}
	if err := sameSchema(ctx, src, dst.DB); err != nil {
		return nil, err
	}
	cols := map[string][]string{}   // every column, as verified
	stored := map[string][]string{} // the columns copied: generated ones compute themselves
	for _, t := range tables {
		if cols[t], err = columnsOf(ctx, src, t); err != nil {
			return nil, err
		}
		gen, err := generatedColumns(ctx, src, t)
		if err != nil {
			return nil, err
		}
		stored[t] = minus(cols[t], gen)
		have, err := columnsOf(ctx, dst.DB, t)
		if err != nil {
			return nil, fmt.Errorf("the target has no table %s (is its schema that of this version?): %w", t, err)
		}
		if missing := minus(cols[t], have); len(missing) > 0 {
			return nil, fmt.Errorf("the target's table %s lacks columns %s: is it of this version?", t, strings.Join(missing, ", "))
		}
	}
	if !dst.Replace {
		for _, t := range []string{"users", "profiles"} {
			var n int64
			if err := dst.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+quote(t)).Scan(&n); err != nil {
				return nil, fmt.Errorf("count target %s: %w", t, err)
			}
			if n > 0 {
				return nil, fmt.Errorf("%w (%d %s): pass --replace to overwrite it", ErrTargetHoldsData, n, t)
			}
		}
	}
	tx, err := dst.DB.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("copy: %w", err)
	}
	defer tx.Rollback()
	if err := clearTables(ctx, tx, tables, dst.Postgres); err != nil {
		return nil, err
	}
	for _, t := range tables {
		if err := copyTable(ctx, src, tx, t, stored[t], dst.Postgres); err != nil {
			return nil, err
		}
	}
	if dst.Postgres {
		for _, t := range tables {
			if !contains(cols[t], "id") {
				continue
			}
			// Identity columns keep counting after the copied ids; a table whose id is not an
			// identity gets NULL from pg_get_serial_sequence and setval does nothing.
			q := `SELECT setval(pg_get_serial_sequence($1, 'id'), (SELECT COALESCE(MAX(id), 0) + 1 FROM ` + quote(t) + `), false)`
			if _, err := tx.ExecContext(ctx, q, quote(t)); err != nil {
				return nil, fmt.Errorf("copy %s: move its id sequence: %w", t, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("copy: commit: %w", err)
	}
	return verifyDatabase(ctx, src, dst.DB, tables, cols)
}

// openSnapshot opens a database copy read-only.
func openSnapshot(path string) (*sql.DB, error) {
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("_query_only", "true")
	db, err := sql.Open("sqlite3", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// sqliteTables answers the snapshot's tables with every table after the tables it references.
func sqliteTables(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, err
		}
		if !skippedTables[n] {
			names = append(names, n)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	parents := map[string][]string{}
	for _, t := range names {
		fk, err := db.QueryContext(ctx, `SELECT DISTINCT "table" FROM pragma_foreign_key_list(?)`, t)
		if err != nil {
			return nil, fmt.Errorf("foreign keys of %s: %w", t, err)
		}
		for fk.Next() {
			var p string
			if err := fk.Scan(&p); err != nil {
				fk.Close()
				return nil, err
			}
			if p != t {
				parents[t] = append(parents[t], p)
			}
		}
		fk.Close()
	}
	var order []string
	state := map[string]int{} // 1: visiting, 2: placed
	var visit func(t string) error
	visit = func(t string) error {
		switch state[t] {
		case 1:
			return fmt.Errorf("foreign keys form a cycle through %s", t)
		case 2:
			return nil
		}
		state[t] = 1
		ps := parents[t]
		sort.Strings(ps)
		for _, p := range ps {
			if err := visit(p); err != nil {
				return err
			}
		}
		state[t] = 2
		order = append(order, t)
		return nil
	}
	for _, t := range names {
		if err := visit(t); err != nil {
			return nil, err
		}
	}
	return order, nil
}

// sameSchema refuses to copy between databases of different schema versions: the columns would
// not mean the same things.
func sameSchema(ctx context.Context, src, dst *sql.DB) error {
	var a, b int
	if err := src.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM migrations`).Scan(&a); err != nil {
		return fmt.Errorf("source schema version: %w", err)
	}
	if err := dst.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM migrations`).Scan(&b); err != nil {
		return fmt.Errorf("target schema version: %w", err)
	}
	if a != b {
		return fmt.Errorf("the source's schema is version %d and the target's %d: run the same kardan version on both", a, b)
	}
	return nil
}

// generatedColumns answers a table's generated columns (table_xinfo's hidden 2 and 3), which
// an INSERT must leave out.
func generatedColumns(ctx context.Context, db *sql.DB, table string) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT name FROM pragma_table_xinfo(?) WHERE hidden IN (2, 3)`, table)
	if err != nil {
		return nil, fmt.Errorf("columns of %s: %w", table, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

func columnsOf(ctx context.Context, db *sql.DB, table string) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT * FROM `+quote(table)+` WHERE 1 = 0`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return rows.Columns()
}

// clearTables empties the copied tables of the target (children first): migrations may have put
// reference rows there, and --replace a previous copy.
func clearTables(ctx context.Context, tx *sql.Tx, tables []string, postgres bool) error {
	if postgres {
		q := make([]string, len(tables))
		for i, t := range tables {
			q[i] = quote(t)
		}
		if _, err := tx.ExecContext(ctx, `TRUNCATE `+strings.Join(q, ", ")+` CASCADE`); err != nil {
			return fmt.Errorf("clear the target: %w", err)
		}
		return nil
	}
	for i := len(tables) - 1; i >= 0; i-- {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+quote(tables[i])); err != nil {
			return fmt.Errorf("clear the target's %s: %w", tables[i], err)
		}
	}
	return nil
}

// copyTable streams a table's rows into the target in multi-row INSERTs.
func copyTable(ctx context.Context, src *sql.DB, tx *sql.Tx, table string, cols []string, postgres bool) error {
	qcols := make([]string, len(cols))
	for i, c := range cols {
		qcols[i] = quote(c)
	}
	list := strings.Join(qcols, ", ")
	rows, err := src.QueryContext(ctx, `SELECT `+list+` FROM `+quote(table))
	if err != nil {
		return fmt.Errorf("copy %s: %w", table, err)
	}
	defer rows.Close()
	// PostgreSQL takes at most 65,535 parameters a statement, SQLite 32,766.
	per := max(1, min(500, 30000/len(cols)))
	batch := make([]any, 0, per*len(cols))
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		n := len(batch) / len(cols)
		var b strings.Builder
		b.WriteString(`INSERT INTO ` + quote(table) + ` (` + list + `) `)
		if postgres {
			// Ids are copied as they are, identity columns GENERATED ALWAYS (the outbox's) too.
			b.WriteString(`OVERRIDING SYSTEM VALUE `)
		}
		b.WriteString(`VALUES `)
		p := 0
		for r := 0; r < n; r++ {
			if r > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('(')
			for c := range cols {
				if c > 0 {
					b.WriteByte(',')
				}
				p++
				if postgres {
					b.WriteString("$" + strconv.Itoa(p))
				} else {
					b.WriteByte('?')
				}
			}
			b.WriteByte(')')
		}
		if _, err := tx.ExecContext(ctx, b.String(), batch...); err != nil {
			return fmt.Errorf("copy %s: %w", table, err)
		}
		batch = batch[:0]
		return nil
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("copy %s: %w", table, err)
		}
		for _, v := range vals {
			if b, ok := v.([]byte); ok {
				v = append([]byte(nil), b...) // the driver reuses its buffer
			}
			batch = append(batch, v)
		}
		if len(batch) >= per*len(cols) {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("copy %s: %w", table, err)
	}
	return flush()
}

func quote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// minus answers the names of a that b lacks.
func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}
