package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Blog statuses. Draft, Pending, Accepted, Rejected and Blocked are stored; Published is shown
// for an Accepted blog whose release date has come (DESIGN.md §3, Blogs).
const (
	BlogDraft     = "Draft"
	BlogPublished = "Published"
)

// Blog is a stored article. Content is sanitised HTML; Summary is plain text.
type Blog struct {
	ID          int64
	WriterID    int64
	Title       string
	Slug        string
	Content     string
	Summary     string
	ImageURL    string
	Tags        []string
	Status      string
	ReleaseAt   int64
	AdminID     *int64
	AdminNote   string
	CreateAt    int64
	UpdateAt    int64
	CategoryIDs []int64
}

// Published reports whether the public may read b at time now.
func (b *Blog) Published(now int64) bool { return b.Status == StatusAccepted && b.ReleaseAt <= now }

// ShownStatus is the status the API shows: Published for a released Accepted blog.
func (b *Blog) ShownStatus(now int64) string {
	if b.Published(now) {
		return BlogPublished
	}
	return b.Status
}

const blogColumns = `b.id, b.writer_id, b.title, b.slug, b.content, b.summary, b.image_url, b.tag, b.status, b.release_at,
	b.admin_id, b.admin_note, b.create_at, b.update_at,
	(SELECT COALESCE(json_group_array(category_id), '[]') FROM blog_categories WHERE blog_id = b.id)`

func scanBlog(sc interface{ Scan(...any) error }) (*Blog, error) {
	b := &Blog{}
	var tags, cats string
	err := sc.Scan(&b.ID, &b.WriterID, &b.Title, &b.Slug, &b.Content, &b.Summary, &b.ImageURL, &tags, &b.Status,
		&b.ReleaseAt, &b.AdminID, &b.AdminNote, &b.CreateAt, &b.UpdateAt, &cats)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(tags), &b.Tags); err != nil {
		return nil, fmt.Errorf("blog %d tags: %w", b.ID, err)
	}
	if err := json.Unmarshal([]byte(cats), &b.CategoryIDs); err != nil {
		return nil, fmt.Errorf("blog %d categories: %w", b.ID, err)
	}
	if b.Tags == nil {
		b.Tags = []string{}
	}
	if b.CategoryIDs == nil {
		b.CategoryIDs = []int64{}
	}
	return b, nil
}

func blogTx(ctx context.Context, tx *sql.Tx, id int64) (*Blog, error) {
	b, err := scanBlog(tx.QueryRowContext(ctx, `SELECT `+blogColumns+` FROM blogs b WHERE b.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound()
	}
	return b, err
}

// Blog answers a blog by id, in any state.
func (s *Store) Blog(ctx context.Context, id int64) (*Blog, error) {
	b, err := scanBlog(s.read.QueryRowContext(ctx, `SELECT `+blogColumns+` FROM blogs b WHERE b.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, fmt.Errorf("get blog: %w", err)
	}
	return b, nil
}

// BlogBySlug answers a blog by slug, in any state.
func (s *Store) BlogBySlug(ctx context.Context, slug string) (*Blog, error) {
	b, err := scanBlog(s.read.QueryRowContext(ctx, `SELECT `+blogColumns+` FROM blogs b WHERE b.slug = ?`, slug))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, fmt.Errorf("get blog: %w", err)
	}
	return b, nil
}

// BlogsByIDs answers the blogs with these ids in the same order, skipping missing ones.
func (s *Store) BlogsByIDs(ctx context.Context, ids []int64) ([]*Blog, error) {
	if len(ids) == 0 {
		return []*Blog{}, nil
	}
	in, args := s.idsIn("b.id", ids)
	rows, err := s.read.QueryContext(ctx, `SELECT `+blogColumns+` FROM blogs b WHERE `+in, args...)
	if err != nil {
		return nil, fmt.Errorf("blogs by id: %w", err)
	}
	defer rows.Close()
	byID := make(map[int64]*Blog, len(ids))
	for rows.Next() {
		b, err := scanBlog(rows)
		if err != nil {
			return nil, fmt.Errorf("blogs by id: %w", err)
		}
		byID[b.ID] = b
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("blogs by id: %w", err)
	}
	out := make([]*Blog, 0, len(ids))
	for _, id := range ids {
		if b, ok := byID[id]; ok {
			out = append(out, b)
		}
	}
	return out, nil
}

// BlogFilter narrows a listing of blogs; nil and zero fields are not filtered on.
type BlogFilter struct {
	WriterID *int64
	// Status is a stored status, or Published.
	Status *string
	// PublishedOnly keeps what the public may read, newest release first; other listings are
	// newest first by creation.
	PublishedOnly bool
	// CategoryID keeps blogs in this category, or in any category of this field of work.
	CategoryID int64
	// Tag keeps blogs with this tag (compared in NormalizeTag's form).
	Tag           string
	Offset, Limit int
}

// Blogs lists the blogs matching f and answers how many match in all.
func (s *Store) Blogs(ctx context.Context, f BlogFilter) ([]*Blog, int, error) {
	now := s.now()
	where, args := []string{"1 = 1"}, []any{}
	if f.WriterID != nil {
		where, args = append(where, "b.writer_id = ?"), append(args, *f.WriterID)
	}
	published := f.PublishedOnly || (f.Status != nil && *f.Status == BlogPublished)
	if published {
		where, args = append(where, "b.status = 'Accepted' AND b.release_at <= ?"), append(args, now)
	} else if f.Status != nil && *f.Status == StatusEdited {
		where = append(where, "b.id IN (SELECT blog_id FROM blog_edits WHERE status = 'Pending')")
	} else if f.Status != nil {
		where, args = append(where, "b.status = ?"), append(args, *f.Status)
		if *f.Status == StatusAccepted {
			// Accepted and not yet released: Published is its own filter.
			where, args = append(where, "b.release_at > ?"), append(args, now)
		}
	}
	if f.CategoryID > 0 {
		where = append(where, `EXISTS (SELECT 1 FROM blog_categories bc JOIN work_categories wc ON wc.id = bc.category_id
			WHERE bc.blog_id = b.id AND (wc.id = ? OR wc.parent_id = ?))`)
		args = append(args, f.CategoryID, f.CategoryID)
	}
	if tag := NormalizeTag(f.Tag); tag != "" {
		where, args = append(where, "EXISTS (SELECT 1 FROM json_each(b.tag) j WHERE j.value = ?)"), append(args, tag)
	}
	cond := strings.Join(where, " AND ")
	var total int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM blogs b WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count blogs: %w", err)
	}
	order := "b.create_at DESC, b.id DESC"
	if published {
		order = "b.release_at DESC, b.id DESC"
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 20
	}
	out, err := queryRows(ctx, s.read, scanBlog, `SELECT `+blogColumns+` FROM blogs b WHERE `+cond+` ORDER BY `+order+
		` LIMIT ? OFFSET ?`, append(args, limit, max(0, f.Offset))...)
	if err != nil {
		return nil, 0, fmt.Errorf("list blogs: %w", err)
	}
	return out, total, nil
}

// ValidBlogStatus reports whether status can filter a blog listing.
func ValidBlogStatus(status string) bool {
	switch status {
	case BlogDraft, StatusPending, StatusAccepted, StatusRejected, StatusBlocked, BlogPublished:
		return true
	}
	return false
}

// CreateBlog validates in and stores a new blog written by actor: a Draft when in.IsDraft,
// otherwise Pending (Accepted with moderation off).
func (s *Store) CreateBlog(ctx context.Context, actor *User, in *BlogInput, opt BlogOptions) (*Blog, error) {
	var id int64
	txt := cleanBlogText(in)
	err := s.tx(ctx, func(tx *sql.Tx) error {
		now := s.now()
		b := &Blog{WriterID: actor.ID, Status: BlogDraft, ReleaseAt: now, CreateAt: now, UpdateAt: now}
		if err := s.applyBlogInput(ctx, tx, b, in, txt, actor, opt, true); err != nil {
			return err
		}
		if !actor.IsAdmin() {
			if err := s.checkBlogQuota(ctx, tx, actor.ID, true, b.Status == BlogDraft, 0, int64(len(b.Content))); err != nil {
				return err
			}
		}
		tags, _ := json.Marshal(b.Tags)
		if err := tx.QueryRowContext(ctx, `INSERT INTO blogs (writer_id, title, slug, content, summary, image_url, tag, status,
			release_at, create_at, update_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, b.WriterID, b.Title, b.Slug,
			b.Content, b.Summary, b.ImageURL, string(tags), b.Status, b.ReleaseAt, b.CreateAt, b.UpdateAt).Scan(&id); err != nil {
			return err
		}
		if err := setBlogCategories(ctx, tx, id, b.CategoryIDs); err != nil {
			return err
		}
		return queueIndex(ctx, tx, "blog", id, now)
	})
	if err != nil {
		return nil, fmt.Errorf("create blog: %w", err)
	}
	return s.Blog(ctx, id)
}

// UpdateBlog replaces a blog's parts with in. The writer or an admin may. The writer's save moves
// the status (a draft, a submission, a resubmission after rejection); an admin's edit keeps it.
func (s *Store) UpdateBlog(ctx context.Context, actor *User, in *BlogInput, opt BlogOptions) (*Blog, error) {
	txt := cleanBlogText(in)
	err := s.tx(ctx, func(tx *sql.Tx) error {
		b, err := blogTx(ctx, tx, in.ID)
		if err != nil {
			return err
		}
		if b.WriterID != actor.ID && !actor.IsAdmin() {
			return Errorf(EForbidden, "blog_not_yours", nil)
		}
		old := *b
		if err := s.applyBlogInput(ctx, tx, b, in, txt, actor, opt, false); err != nil {
			return err
		}
		writerEdit := b.WriterID == actor.ID && !actor.IsAdmin()
		if writerEdit {
			draft := b.Status == BlogDraft && old.Status != BlogDraft
			if err := s.checkBlogQuota(ctx, tx, b.WriterID, false, draft, int64(len(old.Content)), int64(len(b.Content))); err != nil {
				return err
			}
		}
		if opt.Moderated && writerEdit && old.Status == StatusAccepted && b.Status == StatusAccepted && blogMaterialChange(&old, b) {
			// Unreviewed text must not reach the public: the accepted article stays as it is and
			// the rewrite waits for an admin (audit L5).
			return s.holdBlogEdit(ctx, tx, b)
		}
		if writerEdit {
			if err := dropBlogEdit(ctx, tx, b.ID); err != nil {
				return err
			}
		}
		b.UpdateAt = s.now()
		tags, _ := json.Marshal(b.Tags)
		if _, err := tx.ExecContext(ctx, `UPDATE blogs SET title = ?, slug = ?, content = ?, summary = ?, image_url = ?,
			tag = ?, status = ?, release_at = ?, update_at = ? WHERE id = ?`, b.Title, b.Slug, b.Content, b.Summary,
			b.ImageURL, string(tags), b.Status, b.ReleaseAt, b.UpdateAt, b.ID); err != nil {
			return err
		}
		if err := setBlogCategories(ctx, tx, b.ID, b.CategoryIDs); err != nil {
			return err
		}
		return queueIndex(ctx, tx, "blog", b.ID, b.UpdateAt)
	})
	if err != nil {
		return nil, fmt.Errorf("update blog: %w", err)
	}
	return s.Blog(ctx, in.ID)
}

func setBlogCategories(ctx context.Context, tx *sql.Tx, id int64, cats []int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM blog_categories WHERE blog_id = ?`, id); err != nil {
		return err
	}
	for _, c := range cats {
		if _, err := tx.ExecContext(ctx, `INSERT INTO blog_categories (blog_id, category_id) VALUES (?, ?)`, id, c); err != nil {
			return err
		}
	}
	return nil
}

// DeleteBlog removes a blog for good (its writer or an admin); an admin's removal of another's
// blog is recorded in the audit log.
func (s *Store) DeleteBlog(ctx context.Context, actor *User, id int64) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		b, err := blogTx(ctx, tx, id)
		if err != nil {
			return err
		}
		if b.WriterID != actor.ID && !actor.IsAdmin() {
			return Errorf(EForbidden, "blog_not_yours", nil)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM blogs WHERE id = ?`, id); err != nil {
			return err
		}
		now := s.now()
		if b.WriterID != actor.ID {
			if err := audit(ctx, tx, &actor.ID, "delete", "blog", id, b.Status, "", "", now); err != nil {
				return err
			}
		}
		return queueIndex(ctx, tx, "blog", id, now)
	})
	if err != nil {
		return fmt.Errorf("delete blog: %w", err)
	}
	return nil
}

// blogTransitions are the moderation moves an admin may make (DESIGN.md §3).
var blogTransitions = map[string][]string{
	StatusPending:  {StatusAccepted, StatusRejected},
	StatusAccepted: {StatusBlocked},
	StatusBlocked:  {StatusAccepted},
}

// SetBlogStatus moves a blog through moderation and records who did it, when and why. actorID
// nil is the operator's command line.
func (s *Store) SetBlogStatus(ctx context.Context, actorID *int64, id int64, status, note string) (*Blog, error) {
	note = CleanText(note, true)
	if RuneLen(note) > maxNote {
		v := &Validation{}
		v.Add("description", "too_long", map[string]any{"max": maxNote})
		return nil, v.Err()
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var from string
		err := tx.QueryRowContext(ctx, `SELECT status FROM blogs WHERE id = ?`, id).Scan(&from)
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound()
		}
		if err != nil {
			return err
		}
		now := s.now()
		if from == StatusAccepted && (status == StatusAccepted || status == StatusRejected) {
			// On an accepted article these decide its waiting rewrite.
			e, err := blogEditTx(ctx, tx, id)
			if err != nil {
				return err
			}
			if e == nil || e.Status != StatusPending {
				return Errorf(EConflict, "bad_transition", map[string]any{"from": from, "to": status})
			}
			if status == StatusAccepted {
				err = applyBlogEdit(ctx, tx, id, now)
			} else {
				_, err = tx.ExecContext(ctx, `UPDATE blog_edits SET status = ?, admin_id = ?, admin_note = ?, update_at = ? WHERE blog_id = ?`,
					StatusRejected, actorID, note, now, id)
			}
			if err != nil {
				return err
			}
			if err := audit(ctx, tx, actorID, "edit", "blog", id, StatusPending, status, note, now); err != nil {
				return err
			}
			if err := notifyModeration(ctx, tx, "blog", id, status, note, now); err != nil {
				return err
			}
			return queueIndex(ctx, tx, "blog", id, now)
		}
		if !allowedMove(blogTransitions, from, status) {
			return Errorf(EConflict, "bad_transition", map[string]any{"from": from, "to": status})
		}
		if _, err := tx.ExecContext(ctx, `UPDATE blogs SET status = ?, admin_id = ?, admin_note = ?, update_at = ? WHERE id = ?`,
			status, actorID, note, now, id); err != nil {
			return err
		}
		if err := audit(ctx, tx, actorID, "status", "blog", id, from, status, note, now); err != nil {
			return err
		}
		if err := notifyModeration(ctx, tx, "blog", id, status, note, now); err != nil {
			return err
		}
		return queueIndex(ctx, tx, "blog", id, now)
	})
	if err != nil {
		return nil, fmt.Errorf("set blog status: %w", err)
	}
	return s.Blog(ctx, id)
}

// acceptedBlogIDsSQL is a page of AcceptedBlogIDs. The status compared as an expression keeps
// the planner off blogs_status, which would read every Accepted blog and sort them for each page
// (visibleProfileIDsSQL); PostgreSQL has no unary plus for text, hence the concatenation.
const acceptedBlogIDsSQL = `SELECT id FROM blogs WHERE id > ? AND status || '' = 'Accepted' ORDER BY id LIMIT ?`

// AcceptedBlogIDs calls fn with batches of the ids of every Accepted blog (released or not), for
// a full reindex: the index holds them all and filters on the release date when asked.
func (s *Store) AcceptedBlogIDs(ctx context.Context, batch int, fn func(ids []int64) error) error {
	err := s.eachIDBatch(ctx, acceptedBlogIDsSQL, batch, fn)
	if err != nil {
		return fmt.Errorf("accepted blogs: %w", err)
	}
	return nil
}
