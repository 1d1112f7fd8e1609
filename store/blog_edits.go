package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// BlogEdit is a writer's rewrite of an accepted article, waiting for review while the accepted
// version stays public (--moderation pre, audit L5). Article holds the validated new version.
type BlogEdit struct {
	BlogID   int64
	Article  BlogVersion
	Status   string // StatusPending or StatusRejected
	AdminID  *int64
	Note     string
	CreateAt int64
	UpdateAt int64
}

// BlogVersion is what a held edit would change.
type BlogVersion struct {
	Title       string   `json:"title"`
	Slug        string   `json:"slug"`
	Content     string   `json:"content"`
	Summary     string   `json:"summary"`
	ImageURL    string   `json:"image_url"`
	Tags        []string `json:"tag"`
	CategoryIDs []int64  `json:"category_list"`
	ReleaseAt   int64    `json:"release_at"`
}

func versionOf(b *Blog) BlogVersion {
	return BlogVersion{Title: b.Title, Slug: b.Slug, Content: b.Content, Summary: b.Summary, ImageURL: b.ImageURL,
		Tags: b.Tags, CategoryIDs: b.CategoryIDs, ReleaseAt: b.ReleaseAt}
}

// blogMaterialChange reports whether next changes what the public reads of old: its texts,
// picture, tags or categories (not its release date).
func blogMaterialChange(old, next *Blog) bool {
	a, b := slices.Clone(old.CategoryIDs), slices.Clone(next.CategoryIDs)
	slices.Sort(a)
	slices.Sort(b)
	return old.Title != next.Title || old.Content != next.Content || old.Summary != next.Summary ||
		old.ImageURL != next.ImageURL || !slices.Equal(old.Tags, next.Tags) || !slices.Equal(a, b)
}

func (s *Store) holdBlogEdit(ctx context.Context, tx *sql.Tx, b *Blog) error {
	j, err := json.Marshal(versionOf(b))
	if err != nil {
		return err
	}
	now := s.now()
	_, err = tx.ExecContext(ctx, `INSERT INTO blog_edits (blog_id, edit, status, admin_id, admin_note, create_at, update_at)
		VALUES (?, ?, 'Pending', NULL, '', ?, ?)
		ON CONFLICT (blog_id) DO UPDATE SET edit = excluded.edit, status = 'Pending', admin_id = NULL, admin_note = '',
			create_at = excluded.create_at, update_at = excluded.update_at`, b.ID, string(j), now, now)
	return err
}

func dropBlogEdit(ctx context.Context, tx *sql.Tx, id int64) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM blog_edits WHERE blog_id = ?`, id)
	return err
}

func blogEditTx(ctx context.Context, q rowQuerier, id int64) (*BlogEdit, error) {
	e := &BlogEdit{BlogID: id}
	var raw string
	var admin sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT edit, status, admin_id, admin_note, create_at, update_at FROM blog_edits WHERE blog_id = ?`,
		id).Scan(&raw, &e.Status, &admin, &e.Note, &e.CreateAt, &e.UpdateAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if admin.Valid {
		e.AdminID = &admin.Int64
	}
	if err := json.Unmarshal([]byte(raw), &e.Article); err != nil {
		return nil, fmt.Errorf("stored edit of blog %d: %w", id, err)
	}
	return e, nil
}

// BlogEdit answers the article's waiting or rejected rewrite, or nil when it has none.
func (s *Store) BlogEdit(ctx context.Context, id int64) (*BlogEdit, error) {
	e, err := blogEditTx(ctx, s.read, id)
	if err != nil {
		return nil, fmt.Errorf("blog edit %d: %w", id, err)
	}
	return e, nil
}

// applyBlogEdit publishes the waiting rewrite of blog id.
func applyBlogEdit(ctx context.Context, tx *sql.Tx, id int64, now int64) error {
	e, err := blogEditTx(ctx, tx, id)
	if err != nil {
		return err
	}
	v := e.Article
	tags, _ := json.Marshal(v.Tags)
	if _, err := tx.ExecContext(ctx, `UPDATE blogs SET title = ?, slug = ?, content = ?, summary = ?, image_url = ?, tag = ?,
		release_at = ?, update_at = ? WHERE id = ?`, v.Title, v.Slug, v.Content, v.Summary, v.ImageURL, string(tags), v.ReleaseAt, now, id); err != nil {
		return err
	}
	if err := setBlogCategories(ctx, tx, id, v.CategoryIDs); err != nil {
		return err
	}
	return dropBlogEdit(ctx, tx, id)
}
