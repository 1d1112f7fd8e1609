// Reading comments: the filter, the score histogram and the paged lists (writes are in comments.go).
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// CommentFilter narrows a listing of comments; nil and zero fields are not filtered on.
type CommentFilter struct {
	ProfileID *int64
	UserID    *int64
	Hidden    *bool
	// CategoryID keeps the comments that name this category (0: all).
	CategoryID int64
	// Score keeps the comments with this score (0: all).
	Score int
	// WithPhotos keeps the comments that carry at least one photo (false: all).
	WithPhotos bool
	// Sort orders the list: CommentsNewest (the default), CommentsHighest or CommentsLowest.
	Sort          string
	Offset, Limit int
}

// Orders a listing of comments can take; the ties of a score order are broken newest first.
const (
	CommentsNewest  = "newest"
	CommentsHighest = "highest"
	CommentsLowest  = "lowest"
)

var commentOrders = map[string]string{
	"":              "c.create_at DESC, c.id DESC",
	CommentsNewest:  "c.create_at DESC, c.id DESC",
	CommentsHighest: "c.score DESC, c.create_at DESC, c.id DESC",
	CommentsLowest:  "c.score ASC, c.create_at DESC, c.id DESC",
}

// ValidCommentSort reports whether sort names an order Comments knows ("" is the default).
func ValidCommentSort(sort string) bool {
	_, ok := commentOrders[sort]
	return ok
}

// commentHasPhotos is true of a comment with at least one photo. Every writer stores images as
// json.Marshal of a non-nil list (AddComment, EditComment) or the column's default, so a
// comment without photos is exactly '[]'; a plain comparison is cheaper per row than json_each.
const commentHasPhotos = `c.images <> '[]'`

// where answers f's conditions, without the score and the photos: ScoreCounts counts every
// score, and how many have photos, whatever the list keeps.
func (f CommentFilter) where() ([]string, []any) {
	where, args := []string{"1 = 1"}, []any{}
	if f.ProfileID != nil {
		where, args = append(where, "c.profile_id = ?"), append(args, *f.ProfileID)
	}
	if f.UserID != nil {
		where, args = append(where, "c.user_id = ?"), append(args, *f.UserID)
	}
	// hidden is written into the statement, not bound: the partial index comments_hidden
	// (WHERE hidden = 1) serves the moderators' list of hidden comments only when the planner
	// sees the value, and with stable plans (store/sqlite_build.go) it never looks at a bound one.
	if f.Hidden != nil {
		if *f.Hidden {
			where = append(where, "c.hidden = 1")
		} else {
			where = append(where, "c.hidden = 0")
		}
	}
	if f.CategoryID > 0 {
		where = append(where, "EXISTS (SELECT 1 FROM json_each(c.category_list) j WHERE CAST(j.value AS BIGINT) = ?)")
		args = append(args, f.CategoryID)
	}
	return where, args
}

// CommentCounts sums up the comments a filter matches, its Score and WithPhotos aside.
type CommentCounts struct {
	// Scores counts the comments that gave each score: index 0 the 1s, index 4 the 5s. It is the
	// histogram a profile's reviews are summed up by.
	Scores [5]int
	// WithPhotos counts the comments that carry a photo.
	WithPhotos int
}

// ScoreCounts answers how many comments matching f (its Score and WithPhotos aside) gave each
// score, and how many of them carry photos, in one pass.
func (s *Store) ScoreCounts(ctx context.Context, f CommentFilter) (CommentCounts, error) {
	var out CommentCounts
	where, args := f.where()
	rows, err := s.read.QueryContext(ctx, `SELECT c.score, COUNT(*), SUM(CASE WHEN `+commentHasPhotos+` THEN 1 ELSE 0 END)
		FROM comments c WHERE `+strings.Join(where, " AND ")+` GROUP BY c.score`, args...)
	if err != nil {
		return out, fmt.Errorf("count scores: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var score, n, photos int
		if err := rows.Scan(&score, &n, &photos); err != nil {
			return out, fmt.Errorf("count scores: %w", err)
		}
		if score >= minScore && score <= maxScore {
			out.Scores[score-1] = n
			out.WithPhotos += photos
		}
	}
	return out, rows.Err()
}

// Comments lists the comments matching f in f.Sort's order (newest first by default), and how
// many match in all.
func (s *Store) Comments(ctx context.Context, f CommentFilter) ([]*Comment, int, error) {
	where, args := f.where()
	if f.Score > 0 {
		where, args = append(where, "c.score = ?"), append(args, f.Score)
	}
	if f.WithPhotos {
		where = append(where, commentHasPhotos)
	}
	order, ok := commentOrders[f.Sort]
	if !ok {
		return nil, 0, fmt.Errorf("list comments: unknown order %q", f.Sort)
	}
	cond := strings.Join(where, " AND ")
	var total int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM comments c WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count comments: %w", err)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 20
	}
	out, err := queryRows(ctx, s.read, scanComment, `SELECT `+commentColumns+commentFrom+` WHERE `+cond+
		` ORDER BY `+order+` LIMIT ? OFFSET ?`, append(args, limit, max(0, f.Offset))...)
	if err != nil {
		return nil, 0, fmt.Errorf("list comments: %w", err)
	}
	return out, total, nil
}

// CommentOf answers userID's comment on a profile, or the not-found error.
func (s *Store) CommentOf(ctx context.Context, userID, profileID int64) (*Comment, error) {
	c, err := scanComment(s.read.QueryRowContext(ctx, `SELECT `+commentColumns+commentFrom+
		` WHERE c.profile_id = ? AND c.user_id = ?`, profileID, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, fmt.Errorf("comment of user: %w", err)
	}
	return c, nil
}

// ProfileComments is a profile's comment list as comment/get shows it.
type ProfileComments struct {
	// Counts sums up the comments the filter matches, its Score and WithPhotos aside.
	Counts CommentCounts
	// Comments is one page of the comments the filter matches, in its order.
	Comments []*Comment
	// Total is how many comments the filter matches in all.
	Total int
}

// ProfileComments answers the comments of profile id that f matches (f.ProfileID is set to id):
// the histogram, one page and the total. mayRead is asked first, with the profile's visibility
// and owner, and a false answer (or no such profile) is the not-found error.
//
// One statement for a profile with at most commentsAtOnce comments (profileCommentsAtOnce), two
// for one with more, where Profile, ScoreCounts and Comments take four.
// TestProfileCommentsMatchThePlainReads holds both ways to the three plain reads.
func (s *Store) ProfileComments(ctx context.Context, id int64, f CommentFilter, mayRead func(visible bool, owner int64) bool) (*ProfileComments, error) {
	f.ProfileID = &id
	if _, ok := commentOrders[f.Sort]; !ok {
		return nil, fmt.Errorf("list comments: unknown order %q", f.Sort)
	}
	where, args := f.where()
	if !s.manyComments.has(id) {
		out, done, err := s.profileCommentsAtOnce(ctx, id, f, where, slices.Clip(args), mayRead)
		if done || err != nil {
			return out, err
		}
		s.manyComments.add(id)
	}
	return s.profileCommentsInTwo(ctx, id, f, where, args, mayRead)
}

// profileCommentsInTwo is ProfileComments in two statements, because on PostgreSQL each is a
// round trip: the profile's visibility comes with the histogram, and the total is summed from
// it, counted per score with and without photos (the list's two filters).
func (s *Store) profileCommentsInTwo(ctx context.Context, id int64, f CommentFilter, where []string, args []any,
	mayRead func(visible bool, owner int64) bool) (*ProfileComments, error) {
	// A row for each score with and without photos (in the order of the index
	// comments_profile_scores, which holds all the count reads), or one of NULLs for a profile
	// without comments; summed up here.
	rows, err := s.read.QueryContext(ctx, `SELECT p.visible, p.user_id, c.score, `+commentHasPhotos+`, COUNT(c.id)
		FROM profiles p LEFT JOIN comments c ON `+strings.Join(where, " AND ")+`
		WHERE p.id = ? GROUP BY p.id, c.score, `+commentHasPhotos, append(args, id)...)
	if err != nil {
		return nil, fmt.Errorf("count scores: %w", err)
	}
	defer rows.Close()
	out := &ProfileComments{}
	found, visible, owner := false, false, int64(0)
	var all, photos int
	var scores, scorePhotos [maxScore]int
	for rows.Next() {
		var score sql.NullInt64
		var withPhotos sql.NullBool
		var n int
		if err := rows.Scan(&visible, &owner, &score, &withPhotos, &n); err != nil {
			return nil, fmt.Errorf("count scores: %w", err)
		}
		found = true
		if !score.Valid || score.Int64 < minScore || score.Int64 > maxScore {
			continue
		}
		all += n
		scores[score.Int64-1] += n
		if withPhotos.Bool {
			photos += n
			scorePhotos[score.Int64-1] += n
		}
	}
	out.Counts.Scores = scores
	out.Counts.WithPhotos = photos
	switch {
	case f.Score == 0 && f.WithPhotos:
		out.Total = photos
	case f.Score == 0:
		out.Total = all
	case f.Score < minScore || f.Score > maxScore:
		out.Total = 0
	case f.WithPhotos:
		out.Total = scorePhotos[f.Score-1]
	default:
		out.Total = scores[f.Score-1]
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("count scores: %w", err)
	}
	rows.Close()
	if !found || !mayRead(visible, owner) {
		return nil, NotFound()
	}
	if out.Total == 0 || f.Offset >= out.Total {
		out.Comments = []*Comment{}
		return out, nil
	}
	if f.Score > 0 {
		where, args = append(where, "c.score = ?"), append(args, f.Score)
	}
	if f.WithPhotos {
		where = append(where, commentHasPhotos)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 20
	}
	out.Comments, err = queryRows(ctx, s.read, scanComment, `SELECT `+commentColumns+commentFrom+` WHERE `+strings.Join(where, " AND ")+
		` ORDER BY `+commentOrders[f.Sort]+` LIMIT ? OFFSET ?`, append(args, limit, max(0, f.Offset))...)
	if err != nil {
		return nil, fmt.Errorf("list comments: %w", err)
	}
	return out, nil
}

// commentsAtOnce is how many comments (of those a filter matches, its score and photos aside) a
// profile may have for comment/get to read them all in one statement, with the profile's
// visibility, and sum, filter and cut them in Go; a profile with more takes two statements
// (profileCommentsInTwo). A statement is most of a small list's cost (a cgo call, a connection
// from the pool, on PostgreSQL a round trip), and most profiles have a few comments.
var commentsAtOnce = 32

// manyComments remembers the profiles found to have more than commentsAtOnce comments, so their
// next lists go straight to two statements instead of reading commentsAtOnce+1 rows first. It
// is a hint, never an answer: both ways answer the same (TestProfileCommentsMatchThePlainReads
// runs each), so an entry that is no longer true costs only speed, and none is ever dropped but
// all at once when the set is full.
type manyComments struct {
	mu  sync.Mutex
	ids map[int64]struct{}
}

// manyCommentsMax bounds the set: 65,536 ids are about 2 MiB.
const manyCommentsMax = 1 << 16

func (m *manyComments) has(id int64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.ids[id]
	return ok
}

func (m *manyComments) add(id int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ids == nil || len(m.ids) >= manyCommentsMax {
		m.ids = make(map[int64]struct{})
	}
	m.ids[id] = struct{}{}
}

// commentColumnsOrZero is commentColumns for a LEFT JOIN that may find no comment: the zero of
// each NOT NULL column instead of NULL, so scanComment reads the row, with an id of 0.
const commentColumnsOrZero = `COALESCE(c.id, 0), COALESCE(c.profile_id, 0), COALESCE(c.user_id, 0),
	COALESCE(c.category_list, '[]'), COALESCE(c.description, ''), COALESCE(c.score, 0), COALESCE(c.hidden, 0), c.reply,
	c.reply_at, c.admin_id, COALESCE(c.admin_note, ''), COALESCE(c.create_at, 0), COALESCE(c.update_at, 0),
	COALESCE(u.name, ''), COALESCE(u.profile_image, ''), COALESCE(c.images, '[]')`

// rowAfter reads a row's first columns into prefix and hands the rest to a scan function.
type rowAfter struct {
	rows   *sql.Rows
	prefix []any
}

func (r rowAfter) Scan(dest ...any) error { return r.rows.Scan(append(r.prefix, dest...)...) }

// profileCommentsAtOnce is ProfileComments in one statement: the profile's visibility and
// owner with every comment where matches, in f's order. done is false, and nothing else is
// answered, when there are more than commentsAtOnce of them.
func (s *Store) profileCommentsAtOnce(ctx context.Context, id int64, f CommentFilter, where []string, args []any,
	mayRead func(visible bool, owner int64) bool) (out *ProfileComments, done bool, err error) {
	rows, err := s.read.QueryContext(ctx, `SELECT p.visible, p.user_id, CASE WHEN `+commentHasPhotos+` THEN 1 ELSE 0 END, `+
		commentColumnsOrZero+` FROM profiles p LEFT JOIN comments c ON `+strings.Join(where, " AND ")+
		` LEFT JOIN users u ON u.id = c.user_id WHERE p.id = ? ORDER BY `+commentOrders[f.Sort]+` LIMIT ?`,
		append(args, id, commentsAtOnce+1)...)
	if err != nil {
		return nil, false, fmt.Errorf("list comments: %w", err)
	}
	defer rows.Close()
	found, visible, owner := false, false, int64(0)
	var photos bool
	read := rowAfter{rows, []any{&visible, &owner, &photos}}
	out = &ProfileComments{Comments: []*Comment{}}
	n, skip, limit := 0, max(0, f.Offset), f.Limit
	if limit <= 0 {
		limit = 20
	}
	for rows.Next() {
		c, err := scanComment(read)
		if err != nil {
			return nil, false, fmt.Errorf("list comments: %w", err)
		}
		found = true
		if c.ID == 0 || c.Score < minScore || c.Score > maxScore {
			continue
		}
		if n++; n > commentsAtOnce {
			return nil, false, nil
		}
		out.Counts.Scores[c.Score-1]++
		if photos {
			out.Counts.WithPhotos++
		}
		if (f.Score != 0 && c.Score != f.Score) || (f.WithPhotos && !photos) {
			continue
		}
		if out.Total++; out.Total > skip && len(out.Comments) < limit {
			out.Comments = append(out.Comments, c)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("list comments: %w", err)
	}
	if !found || !mayRead(visible, owner) {
		return nil, true, NotFound()
	}
	return out, true, nil
}
