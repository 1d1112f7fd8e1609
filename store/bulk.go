package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// BulkComment is a comment for BulkLoad: the profile and author by their place in the load.
type BulkComment struct {
	Profile     int // index into the load's profiles
	Author      int // index into the load's users
	Description string
	Score       int
	Reply       string
	At          int64
}

// BulkLoad inserts users, already validated profiles and their comments in one transaction with
// prepared statements, queues every profile for the index, and recomputes the scores. Profile i
// belongs to users[owners[i]]. It is how demo data and benchmarks fill a store quickly; the ids it
// assigns are set on the users and profiles.
func (s *Store) BulkLoad(ctx context.Context, users []*User, profiles []*Profile, owners []int, comments []BulkComment) error {
	return s.BulkLoadWithImages(ctx, users, profiles, owners, comments, nil)
}

// BulkLoadWithImages is BulkLoad for profiles whose pictures are already stored: images holds
// each stored image by its address, and each profile's owner gets an upload row for its picture,
// so the owner's own edits may keep it (an account shows only images it uploaded).
func (s *Store) BulkLoadWithImages(ctx context.Context, users []*User, profiles []*Profile, owners []int,
	comments []BulkComment, images map[string]*Upload) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		insUser, err := tx.PrepareContext(ctx, `INSERT INTO users (number_phone, name, password_hash, profile_image, role, create_at, update_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`)
		if err != nil {
			return err
		}
		defer insUser.Close()
		for _, u := range users {
			if u.Role == "" {
				u.Role = RoleUser
			}
			if err := insUser.QueryRowContext(ctx, u.NumberPhone, u.Name, u.PasswordHash, u.ProfileImage, u.Role, u.CreateAt,
				u.UpdateAt).Scan(&u.ID); err != nil {
				return fmt.Errorf("user %s: %w", u.NumberPhone, err)
			}
		}
		insProfile, err := tx.PrepareContext(ctx, `INSERT INTO profiles (user_id, range_worker_id, province_id, city_id, profile_name,
			slug, key_word, work_history_years, descriotion, address, lat, long, account_status, active, display, profile_image, logo,
			services, hours_of_work, social_network, area_working, portfolio_images, option, list_object, create_at, update_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
		if err != nil {
			return err
		}
		defer insProfile.Close()
		insCat, err := tx.PrepareContext(ctx, `INSERT INTO profile_categories (profile_id, category_id) VALUES (?, ?)`)
		if err != nil {
			return err
		}
		defer insCat.Close()
		insOutbox, err := tx.PrepareContext(ctx, `INSERT INTO index_outbox (entity, entity_id, create_at) VALUES ('profile', ?, ?)`)
		if err != nil {
			return err
		}
		defer insOutbox.Close()
		insUpload, err := tx.PrepareContext(ctx, `INSERT INTO uploads (user_id, upload_key, address, thumb, sha256, mime, width,
			height, size, create_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, address) DO NOTHING`)
		if err != nil {
			return err
		}
		defer insUpload.Close()
		for i, p := range profiles {
			p.UserID = users[owners[i]].ID
			j := jsonColumns(p)
			if len(p.ListObject) == 0 {
				p.ListObject = []byte("[]")
			}
			if err := insProfile.QueryRowContext(ctx, p.UserID, p.RangeWorkerID, p.ProvinceID, p.CityID, p.ProfileName, p.Slug,
				p.KeyWord, p.WorkHistoryYears, p.Descriotion, p.Address, p.Lat, p.Long, p.AccountStatus, p.Active, p.Display,
				p.ProfileImage, p.Logo, j[0], j[1], j[2], j[3], j[4], j[5], string(p.ListObject), p.CreateAt, p.UpdateAt).Scan(&p.ID); err != nil {
				return fmt.Errorf("profile %s: %w", p.Slug, err)
			}
			for _, c := range p.CategoryIDs {
				if _, err := insCat.ExecContext(ctx, p.ID, c); err != nil {
					return err
				}
			}
			if _, err := insOutbox.ExecContext(ctx, p.ID, p.UpdateAt); err != nil {
				return err
			}
			if u := images[p.ProfileImage]; u != nil {
				if _, err := insUpload.ExecContext(ctx, p.UserID, u.UploadKey, u.Address, u.Thumb, u.SHA256, u.Mime, u.Width,
					u.Height, u.Size, p.CreateAt); err != nil {
					return fmt.Errorf("upload of %s: %w", p.Slug, err)
				}
			}
		}
		insComment, err := tx.PrepareContext(ctx, `INSERT INTO comments (profile_id, user_id, category_list, description, score,
			reply, reply_at, create_at, update_at) VALUES (?, ?, '[]', ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer insComment.Close()
		for _, c := range comments {
			var reply, replyAt any
			if c.Reply != "" {
				reply, replyAt = c.Reply, c.At
			}
			if _, err := insComment.ExecContext(ctx, profiles[c.Profile].ID, users[c.Author].ID, c.Description, c.Score,
				reply, replyAt, c.At, c.At); err != nil {
				return fmt.Errorf("comment: %w", err)
			}
		}
		if len(profiles) == 0 {
			return nil
		}
		if err := noteQueued(ctx, tx); err != nil {
			return err
		}
		// Only this load's profiles: recomputing every profile after each load made a demo load
		// of a million profiles (a hundred loads) quadratic. The rest keep their level_score until
		// the daily refresh (RefreshLevelScores), as they do when a comment moves the mean.
		return recomputeScores(ctx, tx, profiles[0].ID, profiles[len(profiles)-1].ID)
	})
	if err != nil {
		return fmt.Errorf("bulk load: %w", err)
	}
	return s.Analyze(ctx)
}

// bayesC is the weight of the prior in level_score: a profile needs about this many scores before
// its own mean outweighs the mean of all profiles (DESIGN.md §3).
const bayesC = 5

// recomputeScores sets score, count_scorer, score_sum and level_score of the profiles with ids
// from first to last (one load's, which are consecutive) from their visible comments, with the
// prior m taken as the mean score over all scored profiles.
func recomputeScores(ctx context.Context, tx *sql.Tx, first, last int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE profiles SET
		count_scorer = (SELECT COUNT(*) FROM comments c WHERE c.profile_id = profiles.id AND c.hidden = 0),
		score_sum = (SELECT COALESCE(SUM(score), 0) FROM comments c WHERE c.profile_id = profiles.id AND c.hidden = 0)
		WHERE id BETWEEN ? AND ?`, first, last); err != nil {
		return err
	}
	m, err := meanScore(ctx, tx)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE profiles SET
		score = CASE WHEN count_scorer = 0 THEN 0 ELSE ROUND(score_sum * 1.0 / count_scorer, 1) END,
		level_score = (CAST(? AS DOUBLE PRECISION) + score_sum) / (CAST(? AS DOUBLE PRECISION) + count_scorer)
		WHERE id BETWEEN ? AND ?`, bayesC*m, bayesC, first, last)
	return err
}

// meanScore is the prior of level_score: the mean of the scored profiles' means, or 3 (the middle
// of the scale) before any score exists.
func meanScore(ctx context.Context, tx *sql.Tx) (float64, error) {
	// The two sums are kept by triggers (migration 0060): reading them costs the same at a
	// million profiles as at ten, where the AVG over the table cost 50-95 ms at 100,000.
	var sum float64
	var n int64
	if err := tx.QueryRowContext(ctx, `SELECT sum_means, scored FROM score_mean WHERE id = 1`).Scan(&sum, &n); err != nil {
		return 0, err
	}
	if n <= 0 {
		return 3, nil
	}
	return sum / float64(n), nil
}

// recountScoreMean sets the two sums of meanScore from the profiles table, clearing whatever
// floating-point drift the triggers' additions and subtractions have gathered.
func recountScoreMean(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `UPDATE score_mean SET
		sum_means = (SELECT COALESCE(SUM(p.score_sum * 1.0 / p.count_scorer), 0) FROM profiles p WHERE p.count_scorer > 0),
		scored = (SELECT COUNT(*) FROM profiles p WHERE p.count_scorer > 0)
		WHERE id = 1`)
	return err
}

// SlugsTaken answers which of these slugs profiles already use, for loaders that make their own.
func (s *Store) SlugsTaken(ctx context.Context) (map[string]bool, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT slug FROM profiles`)
	if err != nil {
		return nil, fmt.Errorf("slugs: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var sl string
		if err := rows.Scan(&sl); err != nil {
			return nil, err
		}
		out[strings.ToLower(sl)] = true
	}
	return out, rows.Err()
}

// KeyWord builds a profile's key_word from its name and the records it names.
func KeyWord(name string, r *ProfileRefs) string { return buildKeyWord(name, r) }
