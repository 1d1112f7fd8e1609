package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"regexp"
	"strings"
	"time"
)

// The purge of unused uploads in two phases, so it never holds the store's one writer for long:
//
//  1. ScanStaleUploads reads each table that may name an upload once, from the read pool,
//     streaming its rows into a set of the paths they name, then lists the uploads older than
//     the cutoff that the set lacks. The cost is one pass per table, where a query asking each
//     old upload in turn whether any row names it cost uploads x rows, inside the write
//     transaction (every API write waited for it).
//  2. ForgetStaleUploads forgets them in short write transactions of a few hundred. A row written
//     after the scan began may name one of them: each batch first re-reads, inside its write
//     transaction, the rows written since then (an index on each table's write time makes that a
//     range lookup) and keeps what they name, and keeps an upload someone uploaded again since.
//
// Every column that may hold an upload's path must be named in uploadRefTables, or the purge
// deletes a file that is still shown (migrations: grep for the columns holding /uploads/ paths).

// refKind is how a column holds upload paths.
type refKind int

const (
	refPath refKind = iota // the column is one path (or '')
	refList                // a JSON array of paths
	refText                // JSON or HTML in which a path may appear anywhere
)

// uploadRefColumn is a column that may name an upload.
type uploadRefColumn struct {
	name string
	kind refKind
}

// uploadRefTable is a table whose rows may name uploads; written is the column every write of a
// row sets to the time of the write (leads are never changed once sent: their creation time).
type uploadRefTable struct {
	table, written, where string
	columns               []uploadRefColumn
}

// uploadRefTables: every place an upload is used. A profile's pictures, an account's picture
// (profiles.owner_image is a trigger's copy of it), a review's photos, shown or hidden (a
// moderator may show the review again), a request's photos (signed in or out), an edit waiting
// for moderation, a blog's cover and content.
var uploadRefTables = []uploadRefTable{
	{table: "profiles", written: "update_at", columns: []uploadRefColumn{
		{"profile_image", refPath}, {"logo", refPath}, {"portfolio_images", refList}}},
	{table: "users", written: "update_at", where: "profile_image <> ''", columns: []uploadRefColumn{{"profile_image", refPath}}},
	{table: "comments", written: "update_at", where: "images <> '[]'", columns: []uploadRefColumn{{"images", refList}}},
	{table: "leads", written: "create_at", where: "photos <> '[]'", columns: []uploadRefColumn{{"photos", refList}}},
	{table: "profile_edits", written: "update_at", columns: []uploadRefColumn{{"input", refText}}},
	{table: "blog_edits", written: "update_at", columns: []uploadRefColumn{{"edit", refText}}},
	{table: "blogs", written: "update_at", columns: []uploadRefColumn{{"image_url", refPath}, {"content", refText}}},
}

// writeSlack widens "written since the scan began": a write whose time was read just before the
// scan may commit after the scan read its table, and replicas' clocks differ a little. Rows
// written in the slack are merely read again.
const writeSlack = time.Hour

// uploadRefs is a set of the paths rows name, kept as 64-bit hashes: a million profiles' paths
// fit in tens of megabytes. A collision can only keep an unused file, never delete a used one.
type uploadRefs struct {
	seed maphash.Seed
	set  map[uint64]struct{}
}

func newUploadRefs() *uploadRefs {
	return &uploadRefs{seed: maphash.MakeSeed(), set: map[uint64]struct{}{}}
}

func (r *uploadRefs) has(p string) bool {
	_, ok := r.set[maphash.String(r.seed, p)]
	return ok
}

// add records a path as it is stored and as its stored form (UploadPath): a picture saved as a
// full URL before addresses were stored canonical still keeps its file.
func (r *uploadRefs) add(p string) {
	if p == "" { // an upload without a thumbnail has thumb '': every empty column would keep it
		return
	}
	r.set[maphash.String(r.seed, p)] = struct{}{}
	if c := uploadPath(p); c != p && c != "/" && c != "" {
		r.set[maphash.String(r.seed, c)] = struct{}{}
	}
}

// addColumn records the paths one column's value names.
func (r *uploadRefs) addColumn(kind refKind, v string) {
	switch kind {
	case refPath:
		r.add(v)
	case refList:
		var list []any
		if json.Unmarshal([]byte(v), &list) != nil {
			r.addText(v) // not a list after all: keep whatever it names
			return
		}
		for _, e := range list {
			if p, ok := e.(string); ok {
				r.add(p)
			}
		}
	case refText:
		r.addText(v)
	}
}

// uploadPathAt matches an upload's public path at the start of a text: the shape IsUploadPath
// accepts, which every stored upload has (media names them <2 hex>/<sha256>[-side].<ext>).
var uploadPathAt = regexp.MustCompile(`^/uploads/[A-Za-z0-9_\-]+(/[A-Za-z0-9_\-]+)*\.(jpg|jpeg|png|webp|gif)`)

// addText records every upload path that occurs anywhere in text, as the substring match the
// purge used to run did: from each "/uploads/" the path's characters stop at its one dot, so
// the path matched there is exactly any upload path that occurs there.
func (r *uploadRefs) addText(text string) {
	for i := strings.Index(text, "/uploads/"); i >= 0; {
		if m := uploadPathAt.FindString(text[i:]); m != "" {
			r.set[maphash.String(r.seed, m)] = struct{}{}
		}
		j := strings.Index(text[i+1:], "/uploads/")
		if j < 0 {
			break
		}
		i += 1 + j
	}
}

// collect reads the rows of every uploadRefTable (written since since, when since > 0) into r.
func (r *uploadRefs) collect(ctx context.Context, q queryer, since int64) error {
	for _, t := range uploadRefTables {
		names := make([]string, len(t.columns))
		for i, c := range t.columns {
			names[i] = c.name
		}
		var conds []string
		var args []any
		if since > 0 {
			conds, args = append(conds, t.written+" >= ?"), append(args, since)
		}
		if t.where != "" {
			conds = append(conds, t.where)
		}
		query := `SELECT ` + strings.Join(names, ", ") + ` FROM ` + t.table
		if len(conds) > 0 {
			query += ` WHERE ` + strings.Join(conds, " AND ")
		}
		if err := r.collectRows(ctx, q, t, query, args); err != nil {
			return fmt.Errorf("%s: %w", t.table, err)
		}
	}
	return nil
}

func (r *uploadRefs) collectRows(ctx context.Context, q queryer, t uploadRefTable, query string, args []any) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	vals := make([]sql.NullString, len(t.columns))
	ptrs := make([]any, len(vals))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, c := range t.columns {
			r.addColumn(c.kind, vals[i].String)
		}
	}
	return rows.Err()
}

// StaleUpload is a stored image no profile, account, review, request or blog uses any more.
type StaleUpload struct {
	Address, Thumb string
}

// UploadScan is what ScanStaleUploads found unused, waiting for ForgetStaleUploads.
type UploadScan struct {
	before, since int64
	stale         []StaleUpload
}

// Remaining answers how many of the found uploads ForgetStaleUploads has yet to look at.
func (sc *UploadScan) Remaining() int { return len(sc.stale) }

// ScanStaleUploads finds, without holding the writer, the stored images uploaded before the
// cutoff (Unix seconds) that nothing uses: no profile (picture, logo, portfolio), account
// picture, review (its photos, shown or hidden), request for a price (signed in or out), blog
// (cover or content) or edit waiting for moderation. The cutoff leaves a new upload time to be
// saved into the form it was made for.
func (s *Store) ScanStaleUploads(ctx context.Context, before int64) (*UploadScan, error) {
	sc := &UploadScan{before: before, since: s.Now().Add(-writeSlack).Unix()}
	refs := newUploadRefs()
	if err := refs.collect(ctx, s.read, 0); err != nil {
		return nil, fmt.Errorf("scan uploads: %w", err)
	}
	// A signed-out visitor's request photos (lead_uploads) are stored images like the others:
	// the same file may be in both tables, so a newer row in either keeps it.
	rows, err := s.read.QueryContext(ctx, `SELECT DISTINCT u.address, u.thumb FROM (SELECT address, thumb, create_at FROM uploads
		UNION ALL SELECT address, thumb, create_at FROM lead_uploads) u
		WHERE u.create_at < ?1
		  AND NOT EXISTS (SELECT 1 FROM uploads v WHERE v.address = u.address AND v.create_at >= ?1)
		  AND NOT EXISTS (SELECT 1 FROM lead_uploads v WHERE v.address = u.address AND v.create_at >= ?1)
		ORDER BY u.address`, before)
	if err != nil {
		return nil, fmt.Errorf("scan uploads: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var su StaleUpload
		if err := rows.Scan(&su.Address, &su.Thumb); err != nil {
			return nil, fmt.Errorf("scan uploads: %w", err)
		}
		if !refs.uses(su) {
			sc.stale = append(sc.stale, su)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("scan uploads: %w", err)
	}
	return sc, nil
}

// uses reports whether the rows read into r use su. An upload whose path has not the shape of
// one (only a hand-made row could) is kept: a text that names it would not have been seen.
func (r *uploadRefs) uses(su StaleUpload) bool {
	if r.has(su.Address) || su.Thumb != "" && r.has(su.Thumb) {
		return true
	}
	return !IsUploadPath(su.Address) || su.Thumb != "" && !IsUploadPath(su.Thumb)
}

// ForgetStaleUploads forgets up to limit of the uploads sc found, in one short write
// transaction, and answers them; the caller then deletes their files. Those that a row written
// since the scan began now uses, or that someone uploaded again, are kept.
func (s *Store) ForgetStaleUploads(ctx context.Context, sc *UploadScan, limit int) ([]StaleUpload, error) {
	batch := sc.stale[:min(limit, len(sc.stale))]
	var out []StaleUpload
	err := s.tx(ctx, func(tx *sql.Tx) error {
		out = nil // the closure may run twice (group commit)
		recent := newUploadRefs()
		if err := recent.collect(ctx, tx, sc.since); err != nil {
			return err
		}
		for _, su := range batch {
			if recent.has(su.Address) || su.Thumb != "" && recent.has(su.Thumb) {
				continue
			}
			var fresh int
			if err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM uploads WHERE address = ?1 AND create_at >= ?2)
				+ (SELECT COUNT(*) FROM lead_uploads WHERE address = ?1 AND create_at >= ?2)`, su.Address, sc.before).Scan(&fresh); err != nil {
				return err
			}
			if fresh > 0 {
				continue
			}
			for _, q := range []string{`DELETE FROM uploads WHERE address = ?`, `DELETE FROM lead_uploads WHERE address = ?`} {
				if _, err := tx.ExecContext(ctx, q, su.Address); err != nil {
					return err
				}
			}
			out = append(out, su)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("forget stale uploads: %w", err)
	}
	sc.stale = sc.stale[len(batch):]
	return out, nil
}

// StaleUploads scans for unused uploads (ScanStaleUploads) and forgets up to limit of them
// (ForgetStaleUploads), answering those forgotten. A purge of many calls the two itself, so
// that it scans once.
func (s *Store) StaleUploads(ctx context.Context, before int64, limit int) ([]StaleUpload, error) {
	sc, err := s.ScanStaleUploads(ctx, before)
	if err != nil {
		return nil, err
	}
	return s.ForgetStaleUploads(ctx, sc, limit)
}
