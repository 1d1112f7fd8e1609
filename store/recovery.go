package store

import (
	"context"
	"database/sql"
	"fmt"
)

// CodeProof is a code the client answered, for the operations that accept a code instead of a
// password: the number it was sent to, its purpose, the hash of the answer and the code rules.
type CodeProof struct {
	NumberPhone string
	Purpose     string
	CodeHash    []byte
	Policy      CodePolicy
}

// ErrNoAccount is the answer, given only to someone who answered a live code sent to the number,
// that the number has no account.
func ErrNoAccount() error {
	v := &Validation{}
	v.Add("numberPhone", "no_account", nil)
	return v.Err()
}

// CheckCode reports whether c answers the newest live code of its purpose, without using it up,
// so the caller can afford a password hash only for a right code. A wrong answer counts against
// the code (MaxTries of them burn it) and is reported on otpCode.
func (s *Store) CheckCode(ctx context.Context, c CodeProof) error {
	var fail error
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		_, fail, err = s.answerCode(ctx, tx, c.NumberPhone, c.Purpose, c.CodeHash, c.Policy)
		return err
	})
	if err == nil {
		err = fail
	}
	if err != nil {
		return fmt.Errorf("check %s code: %w", c.Purpose, err)
	}
	return nil
}

// useCode answers c's code in tx and marks it used. fail is the client's answer (wrong, expired,
// burnt); the caller commits tx even then, so a wrong answer's count is kept. Two requests racing
// with one code are serialised by the single writer: the second finds the code used.
func (s *Store) useCode(ctx context.Context, tx *sql.Tx, c CodeProof) (fail, err error) {
	id, fail, err := s.answerCode(ctx, tx, c.NumberPhone, c.Purpose, c.CodeHash, c.Policy)
	if err != nil || fail != nil {
		return fail, err
	}
	_, err = tx.ExecContext(ctx, `UPDATE otp_codes SET used_at = ? WHERE id = ?`, s.now(), id)
	return nil, err
}

// accountOf answers the account of phone in tx, or ErrNoAccount as the client's answer.
func (s *Store) accountOf(ctx context.Context, tx *sql.Tx, phone string) (*User, error) {
	u, err := scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE number_phone = ?`, phone))
	if ErrorCode(err) == ENotFound {
		return nil, ErrNoAccount()
	}
	return u, err
}

// ResetPassword sets the account's password to passwordHash when c answers the newest live
// reset code sent to its number, uses the code up, ends every session of the account and opens
// a new one, all in one transaction, and answers the account.
func (s *Store) ResetPassword(ctx context.Context, c CodeProof, passwordHash string, ns NewSession) (*User, error) {
	var u *User
	var fail error
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		if fail, err = s.useCode(ctx, tx, c); err != nil || fail != nil {
			return err
		}
		if u, fail = s.accountOf(ctx, tx, c.NumberPhone); fail != nil {
			if ErrorCode(fail) != EInvalid {
				return fail
			}
			return nil // the code stays used: it cannot probe again
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ?, update_at = ? WHERE id = ?`,
			passwordHash, s.now(), u.ID); err != nil {
			return err
		}
		u.PasswordHash = passwordHash
		if _, err := s.revokeUserSessions(ctx, tx, u.ID, nil); err != nil {
			return err
		}
		return s.createSession(ctx, tx, u.ID, ns)
	})
	if err == nil {
		err = fail
	}
	if err != nil {
		return nil, fmt.Errorf("reset password: %w", err)
	}
	return u, nil
}

// LoginWithCode opens a session for the account of c's number when c answers the newest live
// sign-in code, using the code up in the same transaction, and answers the account. It never
// looks at failed password sign-ins: whoever holds the phone always gets in.
func (s *Store) LoginWithCode(ctx context.Context, c CodeProof, ns NewSession) (*User, error) {
	var u *User
	var fail error
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		if fail, err = s.useCode(ctx, tx, c); err != nil || fail != nil {
			return err
		}
		if u, fail = s.accountOf(ctx, tx, c.NumberPhone); fail != nil {
			if ErrorCode(fail) != EInvalid {
				return fail
			}
			return nil
		}
		return s.createSession(ctx, tx, u.ID, ns)
	})
	if err == nil {
		err = fail
	}
	if err != nil {
		return nil, fmt.Errorf("login with code: %w", err)
	}
	return u, nil
}
