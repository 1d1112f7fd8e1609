package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/mail"
	"regexp"
	"strings"
)

// Limits of a message sent through the contact form.
const (
	maxCriticName    = 100
	maxCriticEmail   = 254
	maxCriticSubject = 150
	minCriticMessage = 5
	maxCriticMessage = 3000
)

// landlineRe is a telephone number that is not a mobile: digits, optionally international.
var landlineRe = regexp.MustCompile(`^\+?[0-9]{5,15}$`)

// CriticInput is a contact-form message "as sent" (SPEC.md §3, critic/suggestion).
type CriticInput struct {
	Name        string `json:"name"`
	Email       string `json:"email"`
	NumberPhone string `json:"number_phone"`
	Subject     string `json:"subject"`
	Message     string `json:"message"`
}

// Critic is a stored contact-form message.
type Critic struct {
	ID          int64
	UserID      *int64
	Name        string
	Email       string
	NumberPhone string
	Subject     string
	Message     string
	Read        bool
	CreateAt    int64
}

const criticColumns = `id, user_id, name, email, number_phone, subject, message, read, create_at`

func scanCritic(sc interface{ Scan(...any) error }) (*Critic, error) {
	c := &Critic{}
	err := sc.Scan(&c.ID, &c.UserID, &c.Name, &c.Email, &c.NumberPhone, &c.Subject, &c.Message, &c.Read, &c.CreateAt)
	return c, err
}

// normalisePhone answers a contact number: a mobile as 09xxxxxxxxx, or a landline as its digits.
func normalisePhone(s string) (string, bool) {
	if m, ok := NormalizeMobile(s); ok {
		return m, true
	}
	p := strings.NewReplacer(" ", "", "-", "", "(", "", ")", "", ".", "").Replace(ASCIIDigits(strings.TrimSpace(s)))
	return p, landlineRe.MatchString(p)
}

// checkCritic validates in and answers it cleaned.
func checkCritic(in *CriticInput) (*Critic, error) {
	v := &Validation{}
	c := &Critic{
		Name:    CleanText(in.Name, false),
		Subject: CleanText(in.Subject, false),
		Message: CleanText(in.Message, true),
	}
	if RuneLen(c.Name) > maxCriticName {
		v.Add("name", "too_long", map[string]any{"max": maxCriticName})
	}
	if email := strings.TrimSpace(in.Email); email != "" {
		a, err := mail.ParseAddress(email)
		// A bare address only ("Name <a@b>" is not what the field asks for), with a dotted domain.
		if err != nil || a.Address != email || len(email) > maxCriticEmail || !strings.Contains(email[strings.LastIndex(email, "@"):], ".") {
			v.Correct("email")
		} else {
			c.Email = a.Address
		}
	}
	if phone := strings.TrimSpace(in.NumberPhone); phone != "" {
		p, ok := normalisePhone(phone)
		if !ok {
			v.Correct("number_phone")
		}
		c.NumberPhone = p
	}
	if RuneLen(c.Subject) > maxCriticSubject {
		v.Add("subject", "too_long", map[string]any{"max": maxCriticSubject})
	}
	switch n := RuneLen(c.Message); {
	case n == 0:
		v.Enter("message")
	case n < minCriticMessage:
		v.Add("message", "too_short", map[string]any{"min": minCriticMessage})
	case n > maxCriticMessage:
		v.Add("message", "too_long", map[string]any{"max": maxCriticMessage})
	}
	return c, v.Err()
}

// AddCritic stores a contact-form message; userID is the signed-in sender or nil, clientIP where
// it came from (kept for abuse handling, never shown).
func (s *Store) AddCritic(ctx context.Context, userID *int64, in *CriticInput, clientIP string) (*Critic, error) {
	c, err := checkCritic(in)
	if err != nil {
		return nil, err
	}
	c.UserID, c.CreateAt = userID, s.now()
	err = s.tx(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO critics (user_id, name, email, number_phone, subject, message, client_ip,
			create_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, c.UserID, c.Name, c.Email, c.NumberPhone, c.Subject, c.Message,
			clientIP, c.CreateAt).Scan(&c.ID)
	})
	if err != nil {
		return nil, fmt.Errorf("add critic: %w", err)
	}
	return c, nil
}

// CriticFilter narrows a listing of contact-form messages.
type CriticFilter struct {
	Read          *bool
	Offset, Limit int
}

// Critics lists contact-form messages, newest first, and how many match in all.
func (s *Store) Critics(ctx context.Context, f CriticFilter) ([]*Critic, int, error) {
	where, args := []string{"1 = 1"}, []any{}
	if f.Read != nil {
		where, args = append(where, "read = ?"), append(args, *f.Read)
	}
	cond := strings.Join(where, " AND ")
	var total int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM critics WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count critics: %w", err)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 20
	}
	out, err := queryRows(ctx, s.read, scanCritic, `SELECT `+criticColumns+` FROM critics WHERE `+cond+
		` ORDER BY create_at DESC, id DESC LIMIT ? OFFSET ?`, append(args, limit, max(0, f.Offset))...)
	if err != nil {
		return nil, 0, fmt.Errorf("list critics: %w", err)
	}
	return out, total, nil
}

// SetCriticRead marks a contact-form message read or unread.
func (s *Store) SetCriticRead(ctx context.Context, id int64, read bool) (*Critic, error) {
	var c *Critic
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE critics SET read = ? WHERE id = ?`, read, id)
		if err != nil {
			return err
		}
		if affected(res) == 0 {
			return NotFound()
		}
		c, err = scanCritic(tx.QueryRowContext(ctx, `SELECT `+criticColumns+` FROM critics WHERE id = ?`, id))
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		err = NotFound()
	}
	if err != nil {
		return nil, fmt.Errorf("set critic read: %w", err)
	}
	return c, nil
}
