package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Role is a user's role; admin powers come only from the stored role.
type Role string

// The roles.
const (
	RoleUser  Role = "user"
	RoleAdmin Role = "admin"
)

// User is a registered account. PasswordHash never leaves the server.
type User struct {
	ID           int64
	NumberPhone  string
	Name         string
	PasswordHash string
	ProfileImage string
	Role         Role
	CreateAt     int64
	UpdateAt     int64
}

// IsAdmin reports whether u is an administrator.
func (u *User) IsAdmin() bool { return u != nil && u.Role == RoleAdmin }

// UserUpdate holds the fields of an account edit; nil fields stay as they are.
type UserUpdate struct {
	Name         *string
	PasswordHash *string
	ProfileImage *string
	// Code, when set, must answer a live code sent to the account's number (a password change
	// proven by SMS instead of the current password); it is used up with the change.
	Code *CodeProof
}

// UserFilter selects users for listings.
type UserFilter struct {
	Role  *Role
	Limit int // at most this many (0: all)
}

// ErrPhoneRegistered is the answer for a number that already has an account.
func ErrPhoneRegistered() *Error { return &Error{Code: EConflict, Key: "phone_registered"} }

const userColumns = `id, number_phone, name, password_hash, profile_image, role, create_at, update_at`

func scanUser(row interface{ Scan(...any) error }) (*User, error) {
	u := &User{}
	err := row.Scan(&u.ID, &u.NumberPhone, &u.Name, &u.PasswordHash, &u.ProfileImage, &u.Role, &u.CreateAt, &u.UpdateAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, err
	}
	return u, nil
}

// CreateUser stores a new account and sets its ID and times; a registered number is a conflict.
func (s *Store) CreateUser(ctx context.Context, u *User) error {
	if err := s.tx(ctx, func(tx *sql.Tx) error { return s.createUser(ctx, tx, u) }); err != nil {
		return fmt.Errorf("create user: %w", err)
	}
	return nil
}

func (s *Store) createUser(ctx context.Context, tx *sql.Tx, u *User) error {
	if u.Role == "" {
		u.Role = RoleUser
	}
	u.CreateAt, u.UpdateAt = s.now(), s.now()
	err := tx.QueryRowContext(ctx, `INSERT INTO users (number_phone, name, password_hash, profile_image, role, create_at, update_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, u.NumberPhone, u.Name, u.PasswordHash, u.ProfileImage, u.Role, u.CreateAt, u.UpdateAt).Scan(&u.ID)
	if isConstraint(err) {
		return ErrPhoneRegistered()
	}
	return err
}

// UserByID answers one user, or the not-found error.
func (s *Store) UserByID(ctx context.Context, id int64) (*User, error) {
	u, err := scanUser(s.read.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = ?`, id))
	if err != nil {
		return nil, fmt.Errorf("user %d: %w", id, err)
	}
	return u, nil
}

// UserByPhone answers the user with a normalised number, or the not-found error.
func (s *Store) UserByPhone(ctx context.Context, phone string) (*User, error) {
	u, err := scanUser(s.read.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE number_phone = ?`, phone))
	if err != nil {
		return nil, fmt.Errorf("user by phone: %w", err)
	}
	return u, nil
}

// UpdateUser applies upd to user id and answers the result. A new password revokes every session
// of the user except keepSession (the token hash of the session that made the change, or nil).
func (s *Store) UpdateUser(ctx context.Context, id int64, upd UserUpdate, keepSession []byte) (*User, error) {
	var u *User
	var fail error
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if upd.Code != nil {
			var err error
			if fail, err = s.useCode(ctx, tx, *upd.Code); err != nil || fail != nil {
				return err // a wrong answer's count is committed; nothing else changes
			}
		}
		set, args := []string{"update_at = ?"}, []any{s.now()}
		if upd.Name != nil {
			set, args = append(set, "name = ?"), append(args, *upd.Name)
		}
		if upd.ProfileImage != nil {
			set, args = append(set, "profile_image = ?"), append(args, *upd.ProfileImage)
		}
		if upd.PasswordHash != nil {
			set, args = append(set, "password_hash = ?"), append(args, *upd.PasswordHash)
		}
		args = append(args, id)
		res, err := tx.ExecContext(ctx, `UPDATE users SET `+strings.Join(set, ", ")+` WHERE id = ?`, args...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return NotFound()
		}
		if upd.Name != nil || upd.ProfileImage != nil {
			// Every read form of the owner's profiles shows the name and picture: moving the
			// outbox head is what tells the profile cache (profile_cache.go) they changed.
			if _, err := tx.ExecContext(ctx, `INSERT INTO index_outbox (entity, entity_id, create_at)
				SELECT 'profile', id, ? FROM profiles WHERE user_id = ?`, s.now(), id); err != nil {
				return fmt.Errorf("queue the owner's profiles: %w", err)
			}
			if err := noteQueued(ctx, tx); err != nil {
				return err
			}
		}
		if upd.PasswordHash != nil {
			if _, err := s.revokeUserSessions(ctx, tx, id, keepSession); err != nil {
				return err
			}
		}
		u, err = scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = ?`, id))
		return err
	})
	if err == nil {
		err = fail
	}
	if err != nil {
		return nil, fmt.Errorf("update user %d: %w", id, err)
	}
	return u, nil
}

// SetUserRole gives the user with a normalised number a role (`kardan user promote/demote`).
func (s *Store) SetUserRole(ctx context.Context, phone string, role Role) (*User, error) {
	var u *User
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE users SET role = ?, update_at = ? WHERE number_phone = ?`, role, s.now(), phone)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return NotFound()
		}
		u, err = scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE number_phone = ?`, phone))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("set role of %s: %w", phone, err)
	}
	return u, nil
}

// Users answers the users matching f, oldest first, and how many match in all.
func (s *Store) Users(ctx context.Context, f UserFilter) ([]*User, int, error) {
	var out []*User
	total, err := s.eachUser(ctx, f, false, func(u *User) error {
		out = append(out, u)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// EachUser calls fn with the users matching f, newest first, and answers how many match in all.
// kardan user list held every account in memory before printing any: 1.6 GB and 8.5 s for two
// million.
func (s *Store) EachUser(ctx context.Context, f UserFilter, fn func(*User) error) (int, error) {
	return s.eachUser(ctx, f, true, fn)
}

// userPage is how many users eachUser reads at a time; a variable only so a test can page a
// few accounts.
var userPage = 1000

// statements answers eachUser's count and page for f (the page's cursor and LIMIT last), its
// arguments, and the cursor its first page starts after.
func (f UserFilter) statements(newest bool) (count, page string, args []any, cursor int64) {
	where := []string{"1 = 1"}
	switch {
	case f.Role == nil:
	case *f.Role == RoleAdmin:
		// Written out, so that both engines plan it with the partial index users_admins
		// (TestUserListsReadTheAdmins); a bound value is not known when SQLite plans it.
		where = append(where, "role = 'admin'")
	default:
		where, args = append(where, "role = ?"), append(args, *f.Role)
	}
	cond := strings.Join(where, " AND ")
	after, order := "id > ?", "id"
	if newest {
		after, order, cursor = "id < ?", "id DESC", math.MaxInt64
	}
	return `SELECT COUNT(*) FROM users WHERE ` + cond,
		`SELECT ` + userColumns + ` FROM users WHERE ` + cond + ` AND ` + after + ` ORDER BY ` + order + ` LIMIT ?`, args, cursor
}

// eachUser counts the users matching f, then calls fn with at most f.Limit of them (all when
// 0) in id order, descending when newest. It reads them a page at a time, each page after the
// last id (cheap at any depth, where OFFSET would walk every row before it), and calls fn once
// a page is read: a caller slow with them, a terminal paging the list, holds no read open, and
// so no checkpoint of the writes back.
func (s *Store) eachUser(ctx context.Context, f UserFilter, newest bool, fn func(*User) error) (int, error) {
	countSQL, pageSQL, args, cursor := f.statements(newest)
	var total int
	if err := s.read.QueryRowContext(ctx, countSQL, args...).Scan(&total); err != nil {
		return 0, fmt.Errorf("count users: %w", err)
	}
	left := f.Limit
	if left <= 0 {
		left = math.MaxInt
	}
	for left > 0 {
		page, err := queryRows(ctx, s.read, scanUser, pageSQL, append(slices.Clip(args), cursor, min(left, userPage))...)
		if err != nil {
			return 0, fmt.Errorf("list users: %w", err)
		}
		for _, u := range page {
			if err := fn(u); err != nil {
				return 0, err
			}
		}
		if len(page) < min(left, userPage) {
			break
		}
		cursor, left = page[len(page)-1].ID, left-len(page)
	}
	return total, nil
}
