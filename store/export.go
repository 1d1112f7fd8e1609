package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// Snapshot writes a consistent copy of the whole database to dest (which must not exist) while
// the store stays open for reads and writes: the WAL is folded back first so the copy does not
// depend on it, then VACUUM INTO copies one read transaction's view, compacted.
func (s *Store) Snapshot(ctx context.Context, dest string) error {
	// A checkpoint that cannot finish because readers are busy still leaves a correct database:
	// VACUUM INTO reads through the WAL. It only makes the copy cheaper, so its busy answer is
	// not an error.
	if _, err := s.write.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`); err != nil {
		return fmt.Errorf("snapshot: checkpoint: %w", err)
	}
	return SnapshotFile(ctx, s.path, dest)
}

// SnapshotFile copies the database file at src to dest (which must not exist) with VACUUM INTO,
// whether or not a store has src open; start-up uses it to keep a copy before migrating.
func SnapshotFile(ctx context.Context, src, dest string) error {
	// The read pool is query_only, which SQLite takes to forbid VACUUM INTO, and the writer must
	// stay free for the server's writes while a large copy runs: a connection of its own reads
	// one snapshot of the database without blocking either.
	q := url.Values{}
	q.Set("_busy_timeout", "5000")
	db, err := sql.Open("sqlite3", "file:"+src+"?"+q.Encode())
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, dest); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	return nil
}

// FileSchemaVersion answers the schema version recorded in the database file at path without
// migrating it (0 for a file with no migrations yet), so start-up can tell that a migration is
// coming.
func FileSchemaVersion(ctx context.Context, path string) (int, error) {
	// query_only rather than mode=ro: after a crash the WAL must be recovered to read the
	// file, and a read-only open could not create the shared-memory file that needs.
	q := url.Values{}
	q.Set("_query_only", "true")
	q.Set("_busy_timeout", "5000")
	db, err := sql.Open("sqlite3", "file:"+path+"?"+q.Encode())
	if err != nil {
		return 0, fmt.Errorf("schema version of %s: %w", path, err)
	}
	defer db.Close()
	var exists int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'migrations'`).Scan(&exists); err != nil {
		return 0, fmt.Errorf("schema version of %s: %w", path, err)
	}
	if exists == 0 {
		return 0, nil
	}
	var v int
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM migrations`).Scan(&v); err != nil {
		return 0, fmt.Errorf("schema version of %s: %w", path, err)
	}
	return v, nil
}

// SnapshotInfo describes a database file without changing it: its schema version, the rows of
// every table and SQLite's integrity verdict.
type SnapshotInfo struct {
	SchemaVersion int
	Counts        map[string]int64
	Integrity     string
}

// InspectFile opens the database file at path read-only and describes it. Backups use it on the
// copy they archive and restores on the copy they unpack, before either is trusted.
func InspectFile(ctx context.Context, path string) (*SnapshotInfo, error) {
	q := url.Values{}
	q.Set("mode", "ro")            // inspecting must never change the file whose checksum is recorded
	q.Set("_query_only", "true")   // belt and braces: no statement can write
	q.Set("_busy_timeout", "5000") // a backup's copy is private, but a live file may be checkpointing
	db, err := sql.Open("sqlite3", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("inspect %s: %w", path, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	info := &SnapshotInfo{Counts: map[string]int64{}}
	if err := db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&info.Integrity); err != nil {
		return nil, fmt.Errorf("inspect %s: integrity check: %w", path, err)
	}
	if info.Integrity != "ok" {
		return info, nil
	}
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM migrations`).Scan(&info.SchemaVersion); err != nil {
		return nil, fmt.Errorf("inspect %s: schema version: %w", path, err)
	}
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("inspect %s: tables: %w", path, err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return nil, fmt.Errorf("inspect %s: tables: %w", path, err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("inspect %s: tables: %w", path, err)
	}
	for _, t := range tables {
		// Table names come from the file's own schema, not from a user; quoting them keeps a
		// name with odd characters from breaking the statement.
		var n int64
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM "`+strings.ReplaceAll(t, `"`, `""`)+`"`).Scan(&n); err != nil {
			return nil, fmt.Errorf("inspect %s: count %s: %w", path, t, err)
		}
		info.Counts[t] = n
	}
	return info, nil
}

// ExportFilter narrows an export to one user's data; a nil UserID exports everyone's.
type ExportFilter struct {
	UserID *int64
}

// exportBatch is how many rows one export query reads; keyset paging keeps each query cheap at
// a million rows, where OFFSET would rescan.
const exportBatch = 500

// ExportUsers calls fn with every user matching f, oldest first. Password hashes are left out
// of the answer: an export leaves the server.
func (s *Store) ExportUsers(ctx context.Context, f ExportFilter, fn func(*User) error) error {
	var after int64
	for {
		where, args := []string{"id > ?"}, []any{after}
		if f.UserID != nil {
			where, args = append(where, "id = ?"), append(args, *f.UserID)
		}
		rows, err := s.read.QueryContext(ctx, `SELECT `+userColumns+` FROM users WHERE `+strings.Join(where, " AND ")+
			` ORDER BY id LIMIT ?`, append(args, exportBatch)...)
		if err != nil {
			return fmt.Errorf("export users: %w", err)
		}
		var batch []*User
		for rows.Next() {
			u, err := scanUser(rows)
			if err != nil {
				rows.Close()
				return fmt.Errorf("export users: %w", err)
			}
			u.PasswordHash = ""
			batch = append(batch, u)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("export users: %w", err)
		}
		for _, u := range batch {
			if err := fn(u); err != nil {
				return err
			}
		}
		if len(batch) < exportBatch {
			return nil
		}
		after = batch[len(batch)-1].ID
	}
}

// ExportProfiles calls fn with every profile matching f (owned by f.UserID), soft-deleted ones
// included, oldest first.
func (s *Store) ExportProfiles(ctx context.Context, f ExportFilter, fn func(*Profile) error) error {
	var after int64
	for {
		where, args := []string{"p.id > ?"}, []any{after}
		if f.UserID != nil {
			where, args = append(where, "p.user_id = ?"), append(args, *f.UserID)
		}
		rows, err := s.read.QueryContext(ctx, `SELECT `+profileColumns+` FROM profiles p WHERE `+strings.Join(where, " AND ")+
			` ORDER BY p.id LIMIT ?`, append(args, exportBatch)...)
		if err != nil {
			return fmt.Errorf("export profiles: %w", err)
		}
		var batch []*Profile
		for rows.Next() {
			p, err := scanProfile(rows)
			if err != nil {
				rows.Close()
				return fmt.Errorf("export profiles: %w", err)
			}
			batch = append(batch, p)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("export profiles: %w", err)
		}
		for _, p := range batch {
			if err := fn(p); err != nil {
				return err
			}
		}
		if len(batch) < exportBatch {
			return nil
		}
		after = batch[len(batch)-1].ID
	}
}

// BlogRecord is a blog article as an export carries it: the stored row, with its category ids.
type BlogRecord struct {
	ID           int64    `json:"id"`
	WriterID     int64    `json:"writer_id"`
	Title        string   `json:"title"`
	Slug         string   `json:"slug"`
	Content      string   `json:"content"`
	Summary      string   `json:"summary"`
	ImageURL     string   `json:"image_url"`
	Tag          []string `json:"tag"`
	Status       string   `json:"status"`
	CategoryList []int64  `json:"category_list"`
	ReleaseAt    int64    `json:"release_at"`
	CreateAt     int64    `json:"create_at"`
	UpdateAt     int64    `json:"update_at"`
}

// ExportBlogs calls fn with every blog article matching f (written by f.UserID), oldest first.
func (s *Store) ExportBlogs(ctx context.Context, f ExportFilter, fn func(*BlogRecord) error) error {
	var after int64
	for {
		where, args := []string{"b.id > ?"}, []any{after}
		if f.UserID != nil {
			where, args = append(where, "b.writer_id = ?"), append(args, *f.UserID)
		}
		rows, err := s.read.QueryContext(ctx, `SELECT b.id, b.writer_id, b.title, b.slug, b.content, b.summary, b.image_url,
			b.tag, b.status, b.release_at, b.create_at, b.update_at,
			(SELECT COALESCE(json_group_array(category_id), '[]') FROM blog_categories WHERE blog_id = b.id)
			FROM blogs b WHERE `+strings.Join(where, " AND ")+` ORDER BY b.id LIMIT ?`, append(args, exportBatch)...)
		if err != nil {
			return fmt.Errorf("export blogs: %w", err)
		}
		var batch []*BlogRecord
		for rows.Next() {
			b := &BlogRecord{}
			var tag, cats string
			if err := rows.Scan(&b.ID, &b.WriterID, &b.Title, &b.Slug, &b.Content, &b.Summary, &b.ImageURL, &tag, &b.Status,
				&b.ReleaseAt, &b.CreateAt, &b.UpdateAt, &cats); err != nil {
				rows.Close()
				return fmt.Errorf("export blogs: %w", err)
			}
			if err := unmarshalList(tag, &b.Tag); err != nil {
				rows.Close()
				return fmt.Errorf("export blog %d: tag: %w", b.ID, err)
			}
			if err := json.Unmarshal([]byte(cats), &b.CategoryList); err != nil {
				rows.Close()
				return fmt.Errorf("export blog %d: categories: %w", b.ID, err)
			}
			batch = append(batch, b)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("export blogs: %w", err)
		}
		for _, b := range batch {
			if err := fn(b); err != nil {
				return err
			}
		}
		if len(batch) < exportBatch {
			return nil
		}
		after = batch[len(batch)-1].ID
	}
}

// CommentRecord is a comment as an export carries it, with the owner's reply when there is one.
type CommentRecord struct {
	ID              int64           `json:"id"`
	UserTechnicalID int64           `json:"user_technical_id"`
	UserID          int64           `json:"user_id"`
	CategoryList    json.RawMessage `json:"category_list"`
	Description     string          `json:"description"`
	Score           int             `json:"score"`
	Hidden          bool            `json:"hidden"`
	Reply           *string         `json:"reply,omitempty"`
	ReplyAt         *int64          `json:"reply_at,omitempty"`
	CreateAt        int64           `json:"create_at"`
	UpdateAt        int64           `json:"update_at"`
}

// ExportComments calls fn with every comment matching f (written by f.UserID), oldest first.
func (s *Store) ExportComments(ctx context.Context, f ExportFilter, fn func(*CommentRecord) error) error {
	var after int64
	for {
		where, args := []string{"id > ?"}, []any{after}
		if f.UserID != nil {
			where, args = append(where, "user_id = ?"), append(args, *f.UserID)
		}
		rows, err := s.read.QueryContext(ctx, `SELECT id, profile_id, user_id, category_list, description, score, hidden,
			reply, reply_at, create_at, update_at FROM comments WHERE `+strings.Join(where, " AND ")+` ORDER BY id LIMIT ?`,
			append(args, exportBatch)...)
		if err != nil {
			return fmt.Errorf("export comments: %w", err)
		}
		var batch []*CommentRecord
		for rows.Next() {
			c := &CommentRecord{}
			var cats string
			if err := rows.Scan(&c.ID, &c.UserTechnicalID, &c.UserID, &cats, &c.Description, &c.Score, &c.Hidden,
				&c.Reply, &c.ReplyAt, &c.CreateAt, &c.UpdateAt); err != nil {
				rows.Close()
				return fmt.Errorf("export comments: %w", err)
			}
			c.CategoryList = json.RawMessage(cats)
			batch = append(batch, c)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("export comments: %w", err)
		}
		for _, c := range batch {
			if err := fn(c); err != nil {
				return err
			}
		}
		if len(batch) < exportBatch {
			return nil
		}
		after = batch[len(batch)-1].ID
	}
}

// unmarshalList reads a JSON list of strings; a column holding one string (an older writer's
// form of a single tag) becomes a one-item list, so an export never fails on it.
func unmarshalList(raw string, out *[]string) error {
	if err := json.Unmarshal([]byte(raw), out); err == nil {
		return nil
	}
	var one string
	if err := json.Unmarshal([]byte(raw), &one); err != nil {
		return err
	}
	*out = []string{one}
	return nil
}
