package store

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// CodePolicy are the rules of one-time codes.
type CodePolicy struct {
	TTL      time.Duration // how long a code is valid
	MaxTries int           // wrong answers that burn a code
	Cooldown time.Duration // between two sends to one number
	PerPhone int           // sends per number per Window
	PerIP    int           // sends per client address per Window
	Window   time.Duration
}

// SignupCode is a code to issue: the normalised number, the client's address and the code's
// hash (the code itself is never stored).
type SignupCode struct {
	NumberPhone string
	ClientIP    string
	CodeHash    []byte
}

// Code purposes: what an issued code may be answered for. A code answers only its own purpose.
const (
	PurposeSignup = "signup"
	PurposeReset  = "reset"
	PurposeLogin  = "login"
	// PurposeLead proves a signed-out visitor's number on a request for a price.
	PurposeLead = "lead"
)

// IssueSignupCode stores a sign-up code when the policy's cooldown and hourly caps allow a send
// (too many, with the seconds to wait). It answers the code's row id, for WithdrawCode. It does
// not look at whether the number is registered: a registered number is counted and answered
// alike (the caller sends it a notice instead of the code), so sign-up tells no stranger who
// has an account.
func (s *Store) IssueSignupCode(ctx context.Context, c SignupCode, p CodePolicy) (int64, error) {
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		id, err = s.issueCode(ctx, tx, c, PurposeSignup, p)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("issue code: %w", err)
	}
	return id, nil
}

// IssueCode stores a code for purpose (PurposeReset, PurposeLogin) when the policy's cooldown
// and hourly caps allow a send. It never looks at whether the number has an account: a number
// with none gets the same answer, limits and SMS, so the route is no account-existence oracle
// (only the holder of the phone learns, by answering the code, that it has no account).
func (s *Store) IssueCode(ctx context.Context, c SignupCode, purpose string, p CodePolicy) (int64, error) {
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		id, err = s.issueCode(ctx, tx, c, purpose, p)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("issue %s code: %w", purpose, err)
	}
	return id, nil
}

// issueCode checks the cooldown and the hourly caps and stores the code in tx, so the check and
// the count are one step: two requests racing for the last send cannot both pass. Sends of every
// purpose count together, since each one is an SMS the operator pays for.
func (s *Store) issueCode(ctx context.Context, tx *sql.Tx, c SignupCode, purpose string, p CodePolicy) (int64, error) {
	now := s.now()
	window := now - int64(p.Window/time.Second)
	var wait int64
	var last sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT MAX(create_at) FROM otp_codes WHERE number_phone = ?`, c.NumberPhone).Scan(&last); err != nil {
		return 0, err
	}
	if cd := int64(p.Cooldown / time.Second); last.Valid && now-last.Int64 < cd {
		wait = last.Int64 + cd - now
	}
	for _, cap := range []struct {
		col, val string
		max      int
	}{{"number_phone", c.NumberPhone, p.PerPhone}, {"client_ip", c.ClientIP, p.PerIP}} {
		var n int
		var oldest sql.NullInt64
		// col is one of two fixed column names, never input.
		err := tx.QueryRowContext(ctx, `SELECT COUNT(*), MIN(create_at) FROM (SELECT create_at FROM otp_codes
			WHERE `+cap.col+` = ? AND create_at > ? ORDER BY create_at DESC LIMIT ?) recent`, cap.val, window, cap.max).Scan(&n, &oldest)
		if err != nil {
			return 0, err
		}
		if n >= cap.max {
			wait = max(wait, oldest.Int64+int64(p.Window/time.Second)-now)
		}
	}
	if wait > 0 {
		return 0, TooMany(wait)
	}
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO otp_codes (number_phone, purpose, code_hash, client_ip, create_at, expire_at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, c.NumberPhone, purpose, c.CodeHash, c.ClientIP, now, now+int64(p.TTL/time.Second)).Scan(&id)
	return id, err
}

// WithdrawCode deletes an issued code whose SMS the provider refused, so it neither counts as a
// send nor can be answered.
func (s *Store) WithdrawCode(ctx context.Context, id int64) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM otp_codes WHERE id = ?`, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("withdraw code: %w", err)
	}
	return nil
}

// codeError is a wrong, expired or burnt code, reported on the otpCode field.
func codeError(key string) error {
	v := &Validation{}
	v.Add("otpCode", key, nil)
	return v.Err()
}

// CheckSignupCode reports whether codeHash answers the newest live sign-up code sent to phone,
// without using it up, so the caller can afford the password hash only for a right code. A
// wrong answer counts against the code (MaxTries of them burn it) and is reported on otpCode.
func (s *Store) CheckSignupCode(ctx context.Context, phone string, codeHash []byte, p CodePolicy) error {
	var fail error
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		if _, fail, err = s.answerCode(ctx, tx, phone, PurposeSignup, codeHash, p); err != nil || fail != nil {
			return err
		}
		// Only after a right code: a wrong one is answered alike for registered numbers.
		return s.refuseRegistered(ctx, tx, phone)
	})
	if err == nil {
		err = fail
	}
	if err != nil {
		return fmt.Errorf("check code: %w", err)
	}
	return nil
}

// Register creates the account u when codeHash answers the newest live sign-up code sent to
// u.NumberPhone, uses the code up and opens the account's first session, all in one transaction.
// A wrong answer counts against the code, as in CheckSignupCode.
func (s *Store) Register(ctx context.Context, u *User, codeHash []byte, p CodePolicy, ns NewSession) error {
	var fail error
	err := s.tx(ctx, func(tx *sql.Tx) error {
		id, f, err := s.answerCode(ctx, tx, u.NumberPhone, PurposeSignup, codeHash, p)
		if err != nil || f != nil {
			fail = f
			return err
		}
		if err := s.refuseRegistered(ctx, tx, u.NumberPhone); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE otp_codes SET used_at = ? WHERE id = ?`, s.now(), id); err != nil {
			return err
		}
		if err := s.createUser(ctx, tx, u); err != nil {
			return err
		}
		return s.createSession(ctx, tx, u.ID, ns)
	})
	if err == nil {
		err = fail
	}
	if err != nil {
		return fmt.Errorf("register: %w", err)
	}
	return nil
}

// refuseRegistered answers the conflict error when phone already has an account.
func (s *Store) refuseRegistered(ctx context.Context, tx *sql.Tx, phone string) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE number_phone = ?`, phone).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return ErrPhoneRegistered()
	}
	return nil
}

// answerCode compares codeHash with the newest unused code of phone for purpose and answers the
// code's id when it matches. fail is the answer for the client (no code, expired, burnt, wrong);
// a wrong answer's count is written in tx, which the caller commits even though fail is set.
func (s *Store) answerCode(ctx context.Context, tx *sql.Tx, phone, purpose string, codeHash []byte, p CodePolicy) (id int64, fail, err error) {
	var expire int64
	var tries int
	var stored []byte
	var used sql.NullInt64
	// Only the newest code counts, used or not: once it is used, an older one still within its
	// two minutes must not become answerable again.
	err = tx.QueryRowContext(ctx, `SELECT id, code_hash, tries, expire_at, used_at FROM otp_codes
		WHERE number_phone = ? AND purpose = ? ORDER BY id DESC LIMIT 1`,
		phone, purpose).Scan(&id, &stored, &tries, &expire, &used)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, codeError("code_expired"), nil
	case err != nil:
		return 0, nil, err
	case used.Valid:
		return 0, codeError("code_expired"), nil
	case tries >= p.MaxTries:
		return 0, codeError("code_burned"), nil
	case expire <= s.now():
		return 0, codeError("code_expired"), nil
	}
	if subtle.ConstantTimeCompare(stored, codeHash) == 1 {
		return id, nil, nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE otp_codes SET tries = tries + 1 WHERE id = ?`, id); err != nil {
		return 0, nil, err
	}
	if tries+1 >= p.MaxTries {
		return 0, codeError("code_burned"), nil
	}
	return 0, codeError("wrong_code"), nil
}
