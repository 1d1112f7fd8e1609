package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Comment states as admins and the API name them; the table stores a hidden flag.
const (
	CommentVisible = "Visible"
	CommentHidden  = "Hidden"
)

// Limits of a comment.
const (
	minCommentText = 2
	maxCommentText = 2000
	minScore       = 1
	maxScore       = 5
	maxNote        = 1000
	// MaxCommentImages is how many photos one review may carry.
	MaxCommentImages = 3
)

// CommentInput is a comment "as sent" (SPEC.md §3): ProfileID is the spec's user_technical_id
// on add, ID names the comment on edit.
type CommentInput struct {
	ID           int64  `json:"id"`
	ProfileID    int64  `json:"user_technical_id"`
	CategoryList IDList `json:"category_list"`
	Description  string `json:"description"`
	Score        int    `json:"score"`
	// Images are up to MaxCommentImages upload paths the author uploaded (uploadKey "comment").
	Images []string `json:"images"`
}

// Comment is a stored comment with its author's public name and picture.
type Comment struct {
	ID           int64
	ProfileID    int64
	UserID       int64
	CategoryList []int64
	Description  string
	Score        int
	Hidden       bool
	Reply        *string
	ReplyAt      *int64
	AdminID      *int64
	AdminNote    string
	CreateAt     int64
	UpdateAt     int64
	AuthorName   string
	AuthorImage  string
	Images       []string
}

// Status answers Visible or Hidden.
func (c *Comment) Status() string {
	if c.Hidden {
		return CommentHidden
	}
	return CommentVisible
}

const commentColumns = `c.id, c.profile_id, c.user_id, c.category_list, c.description, c.score, c.hidden, c.reply,
	c.reply_at, c.admin_id, c.admin_note, c.create_at, c.update_at, COALESCE(u.name, ''), COALESCE(u.profile_image, ''), c.images`

const commentFrom = ` FROM comments c LEFT JOIN users u ON u.id = c.user_id`

func scanComment(sc interface{ Scan(...any) error }) (*Comment, error) {
	c := &Comment{}
	var cats, images string
	err := sc.Scan(&c.ID, &c.ProfileID, &c.UserID, &cats, &c.Description, &c.Score, &c.Hidden, &c.Reply,
		&c.ReplyAt, &c.AdminID, &c.AdminNote, &c.CreateAt, &c.UpdateAt, &c.AuthorName, &c.AuthorImage, &images)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(images), &c.Images); err != nil {
		return nil, fmt.Errorf("comment %d images: %w", c.ID, err)
	}
	if c.Images == nil {
		c.Images = []string{}
	}
	if err := json.Unmarshal([]byte(cats), &c.CategoryList); err != nil {
		return nil, fmt.Errorf("comment %d: %w", c.ID, err)
	}
	if c.CategoryList == nil {
		c.CategoryList = []int64{}
	}
	return c, nil
}

func commentTx(ctx context.Context, tx *sql.Tx, id int64) (*Comment, error) {
	c, err := scanComment(tx.QueryRowContext(ctx, `SELECT `+commentColumns+commentFrom+` WHERE c.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound()
	}
	return c, err
}

// Comment answers one comment by id, hidden or not.
func (s *Store) Comment(ctx context.Context, id int64) (*Comment, error) {
	c, err := scanComment(s.read.QueryRowContext(ctx, `SELECT `+commentColumns+commentFrom+` WHERE c.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, fmt.Errorf("get comment: %w", err)
	}
	return c, nil
}

// checkComment validates the parts of in both add and edit share, against the profile p
// commented on, and answers the cleaned text and categories.
func checkComment(in *CommentInput, p *Profile) (string, []int64, error) {
	v := &Validation{}
	text := CleanText(in.Description, true)
	checkCommentText(v, text, "comment")
	if in.Score < minScore || in.Score > maxScore {
		v.Add("score", "out_of_range", map[string]any{"min": minScore, "max": maxScore})
	}
	// A comment may name the categories (or the field) of the profile it is about, nothing else.
	allowed := map[int64]bool{p.RangeWorkerID: true}
	for _, c := range p.CategoryIDs {
		allowed[c] = true
	}
	cats := dedupe(in.CategoryList)
	for _, c := range cats {
		if !allowed[c] {
			v.Correct("category_list")
			break
		}
	}
	return text, cats, v.Err()
}

// commentImages validates a review's photos in tx: at most MaxCommentImages, each an image
// authorID uploaded (reduced to its stored path, duplicates dropped), answered as stored JSON.
func commentImages(ctx context.Context, tx *sql.Tx, authorID int64, images []string) (string, error) {
	v := &Validation{}
	out := []string{}
	seen := map[string]bool{}
	for _, a := range images {
		p := uploadPath(a)
		if p == "" || !strings.HasPrefix(p, "/uploads/") {
			v.Correct("images")
			break
		}
		if seen[p] {
			continue
		}
		seen[p] = true
		owned, err := ownsUpload(ctx, tx, authorID, p)
		if err != nil {
			return "", err
		}
		if !owned {
			v.Add("images", "image_not_yours", nil)
			break
		}
		out = append(out, p)
	}
	if len(out) > MaxCommentImages {
		v.Add("images", "too_many_images", map[string]any{"max": MaxCommentImages})
	}
	if err := v.Err(); err != nil {
		return "", err
	}
	b, _ := json.Marshal(out)
	return string(b), nil
}

// checkCommentText checks the length of a comment's or a reply's text (kind "comment" or
// "reply"), with messages that name what is being written.
func checkCommentText(v *Validation, text, kind string) {
	switch n := RuneLen(text); {
	case n == 0:
		v.Add("description", kind+"_text_required", nil)
	case n < minCommentText || n > maxCommentText:
		v.Add("description", kind+"_text_length", map[string]any{"min": minCommentText, "max": maxCommentText})
	}
}

// AddComment stores author's comment on a visible profile and recomputes the profile's scores in
// the same transaction. One comment per user per profile; never on one's own profile.
func (s *Store) AddComment(ctx context.Context, author *User, in *CommentInput) (*Comment, error) {
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		p, err := commentTarget(ctx, tx, in.ProfileID)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && !p.Visible()) {
			return NotFound()
		}
		if err != nil {
			return err
		}
		if p.UserID == author.ID {
			// A business rule, not "not yours": a 400 on the field, since the spec's client
			// signs the user out on any 403.
			v := &Validation{}
			v.Add("user_technical_id", "comment_own_profile", nil)
			return v.Err()
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM comments WHERE profile_id = ? AND user_id = ?`,
			p.ID, author.ID).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return Errorf(EConflict, "already_commented", nil)
		}
		text, cats, err := checkComment(in, p)
		if err != nil {
			return err
		}
		images, err := commentImages(ctx, tx, author.ID, in.Images)
		if err != nil {
			return err
		}
		if err := s.checkCommentQuota(ctx, tx, author.ID); err != nil {
			return err
		}
		catsJSON, _ := json.Marshal(cats)
		now := s.now()
		err = tx.QueryRowContext(ctx, `INSERT INTO comments (profile_id, user_id, category_list, description, score,
			images, create_at, update_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, p.ID, author.ID, string(catsJSON), text, in.Score,
			images, now, now).Scan(&id)
		if isConstraint(err) {
			return Errorf(EConflict, "already_commented", nil)
		}
		if err != nil {
			return err
		}
		if err := notify(ctx, tx, Notification{UserID: p.UserID, Kind: NotifyNewReview, Entity: "comment", EntityID: id,
			Title: p.ProfileName, Status: fmt.Sprint(in.Score), CreateAt: now}); err != nil {
			return err
		}
		return rescoreProfile(ctx, tx, p.ID, now)
	})
	if err != nil {
		return nil, fmt.Errorf("add comment: %w", err)
	}
	return s.Comment(ctx, id)
}

// commentTarget reads, in the writer's transaction, what a new review needs of its profile: the
// owner, whether it is public, its name and its field and categories. The whole row (its texts,
// hours and lists, decoded) was a third of a review's time in the store's one writer.
func commentTarget(ctx context.Context, tx *sql.Tx, id int64) (*Profile, error) {
	p := &Profile{}
	var cats string
	err := tx.QueryRowContext(ctx, `SELECT p.id, p.user_id, p.range_worker_id, p.profile_name, p.account_status, p.active,
		p.display, p.delete_at, p.category_ids FROM profiles p WHERE p.id = ?`, id).Scan(&p.ID, &p.UserID, &p.RangeWorkerID, &p.ProfileName, &p.AccountStatus, &p.Active,
		&p.Display, &p.DeleteAt, &cats)
	if err != nil {
		return nil, err
	}
	if p.CategoryIDs, err = parseIDList(cats); err != nil {
		return nil, err
	}
	return p, nil
}

// EditComment changes the author's own comment (text, score, categories) and recomputes the
// profile's scores.
func (s *Store) EditComment(ctx context.Context, author *User, in *CommentInput) (*Comment, error) {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		c, err := commentTx(ctx, tx, in.ID)
		if err != nil {
			return err
		}
		if c.UserID != author.ID {
			return Errorf(EForbidden, "comment_not_yours", nil)
		}
		p, err := scanProfile(tx.QueryRowContext(ctx, `SELECT `+profileColumns+` FROM profiles p WHERE p.id = ?`, c.ProfileID))
		if err != nil {
			return err
		}
		text, cats, err := checkComment(in, p)
		if err != nil {
			return err
		}
		// An edit that does not send images keeps the ones the review has (the spec's client
		// knows no photos); an empty list removes them.
		images := ""
		if in.Images != nil {
			if images, err = commentImages(ctx, tx, author.ID, in.Images); err != nil {
				return err
			}
		} else {
			b, _ := json.Marshal(c.Images)
			images = string(b)
		}
		catsJSON, _ := json.Marshal(cats)
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE comments SET description = ?, score = ?, category_list = ?, images = ?, update_at = ?
			WHERE id = ?`, text, in.Score, string(catsJSON), images, now, c.ID); err != nil {
			return err
		}
		return rescoreProfile(ctx, tx, c.ProfileID, now)
	})
	if err != nil {
		return nil, fmt.Errorf("edit comment: %w", err)
	}
	return s.Comment(ctx, in.ID)
}

// ReplyComment sets the profile owner's reply to a comment; replying again replaces it. A reply
// carries no score.
func (s *Store) ReplyComment(ctx context.Context, owner *User, id int64, text string) (*Comment, error) {
	text = CleanText(text, true)
	v := &Validation{}
	checkCommentText(v, text, "reply")
	err := s.tx(ctx, func(tx *sql.Tx) error {
		c, err := commentTx(ctx, tx, id)
		if err != nil {
			return err
		}
		profileOwnerID, _, err := profileOwner(ctx, tx, c.ProfileID)
		if err != nil {
			return err
		}
		if profileOwnerID != owner.ID {
			return Errorf(EForbidden, "reply_not_owner", nil)
		}
		if err := v.Err(); err != nil {
			return err
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE comments SET reply = ?, reply_at = ? WHERE id = ?`, text, now, id); err != nil {
			return err
		}
		var title string
		if err := tx.QueryRowContext(ctx, `SELECT profile_name FROM profiles WHERE id = ?`, c.ProfileID).Scan(&title); err != nil {
			return err
		}
		return notify(ctx, tx, Notification{UserID: c.UserID, Kind: NotifyReviewReply, Entity: "comment", EntityID: id, Title: title, CreateAt: now})
	})
	if err != nil {
		return nil, fmt.Errorf("reply to comment: %w", err)
	}
	return s.Comment(ctx, id)
}

// SetCommentStatus hides or shows a comment (status Hidden or Visible), recomputes the profile's
// scores and records who did it, when and why. actorID nil is the operator's command line.
func (s *Store) SetCommentStatus(ctx context.Context, actorID *int64, id int64, status, note string) (*Comment, error) {
	note = CleanText(note, true)
	v := &Validation{}
	if status != CommentHidden && status != CommentVisible {
		v.Correct("status")
	}
	if RuneLen(note) > maxNote {
		v.Add("description", "too_long", map[string]any{"max": maxNote})
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		c, err := commentTx(ctx, tx, id)
		if err != nil {
			return err
		}
		if c.Status() == status {
			return Errorf(EConflict, "bad_transition", map[string]any{"from": c.Status(), "to": status})
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE comments SET hidden = ?, admin_id = ?, admin_note = ? WHERE id = ?`,
			status == CommentHidden, actorID, note, id); err != nil {
			return err
		}
		if err := audit(ctx, tx, actorID, "status", "comment", id, c.Status(), status, note, now); err != nil {
			return err
		}
		return rescoreProfile(ctx, tx, c.ProfileID, now)
	})
	if err != nil {
		return nil, fmt.Errorf("set comment status: %w", err)
	}
	return s.Comment(ctx, id)
}

// rescoreProfile recomputes one profile's count_scorer, score_sum, score (the mean, one decimal)
// and level_score (DESIGN.md §3) from its visible comments, and queues it for the index, all in
// the caller's transaction. The prior m is the mean over all scored profiles as it stands after
// this profile's change; other profiles keep the level_score computed with the m of their own
// last change, as recomputing them all would rewrite and reindex every profile per comment.
func rescoreProfile(ctx context.Context, tx *sql.Tx, profileID, now int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE profiles SET
		count_scorer = (SELECT COUNT(*) FROM comments c WHERE c.profile_id = profiles.id AND c.hidden = 0),
		score_sum = (SELECT COALESCE(SUM(score), 0) FROM comments c WHERE c.profile_id = profiles.id AND c.hidden = 0)
		WHERE id = ?`, profileID); err != nil {
		return fmt.Errorf("rescore profile %d: %w", profileID, err)
	}
	m, err := meanScore(ctx, tx)
	if err != nil {
		return fmt.Errorf("rescore profile %d: %w", profileID, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE profiles SET
		score = CASE WHEN count_scorer = 0 THEN 0 ELSE ROUND(score_sum * 1.0 / count_scorer, 1) END,
		level_score = (CAST(? AS DOUBLE PRECISION) + score_sum) / (CAST(? AS DOUBLE PRECISION) + count_scorer)
		WHERE id = ?`, bayesC*m, bayesC, profileID); err != nil {
		return fmt.Errorf("rescore profile %d: %w", profileID, err)
	}
	return queueIndex(ctx, tx, "profile", profileID, now)
}
