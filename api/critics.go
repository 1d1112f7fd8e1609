package api

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"kardan/store"
)

// criticForm is a contact-form message as admins read it; the sender's address is kept for
// abuse handling and not shown.
type criticForm struct {
	ID          int64  `json:"id"`
	UserID      *int64 `json:"user_id"`
	Name        string `json:"name"`
	Email       string `json:"email"`
	NumberPhone string `json:"number_phone"`
	Subject     string `json:"subject"`
	Message     string `json:"message"`
	Read        bool   `json:"read"`
	CreateAt    string `json:"create_at"`
}

func criticFormOf(c *store.Critic) *criticForm {
	return &criticForm{ID: c.ID, UserID: c.UserID, Name: c.Name, Email: c.Email, NumberPhone: c.NumberPhone,
		Subject: c.Subject, Message: c.Message, Read: c.Read, CreateAt: isoTime(c.CreateAt)}
}

// criticLimit is how many messages one client address (anonymous) or one account (signed in)
// may send through the contact form per hour.
func criticLimit(kind, key string) store.Limit {
	return store.Limit{Kind: kind, Key: key, Max: 5, Window: time.Hour}
}

// handleCriticAdd handles "POST /v1/critics-and-suggestions/add {name, email, number_phone,
// subject, message}": anyone may write, five messages per client address per hour.
func (s *Server) handleCriticAdd(w http.ResponseWriter, r *http.Request) error {
	var in store.CriticInput
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	var userID *int64
	if u := userFrom(r); u != nil {
		userID = &u.ID
	}
	return s.addCritic(w, r, &in, userID, criticLimit("critic_ip", s.addrKeyOf(r)))
}

// handleCriticAddWithAuth handles "POST /v1/critics-and-suggestions/addWithAuth": the signed-in
// user's message; name and number come from the account when left empty.
func (s *Server) handleCriticAddWithAuth(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	var in store.CriticInput
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	if store.CleanText(in.Name, false) == "" {
		in.Name = u.Name
	}
	if store.CleanText(in.NumberPhone, false) == "" {
		in.NumberPhone = u.NumberPhone
	}
	return s.addCritic(w, r, &in, &u.ID, criticLimit("critic_user", strconv.FormatInt(u.ID, 10)))
}

// addCritic stores a message within the sender's limit; refused messages do not count against it.
func (s *Server) addCritic(w http.ResponseWriter, r *http.Request, in *store.CriticInput, userID *int64, limit store.Limit) error {
	res, err := s.store.RateReserve(r.Context(), limit)
	if err != nil {
		return err
	}
	c, err := s.store.AddCritic(r.Context(), userID, in, clientIPOf(r))
	if err != nil {
		if store.ErrorCode(err) == store.EInvalid {
			if rerr := res.Release(context.WithoutCancel(r.Context())); rerr != nil {
				return rerr
			}
		}
		return err
	}
	writeJSON(w, http.StatusOK, criticFormOf(c), message(langOf(r), "critic_received", nil))
	return nil
}

// handleCritics handles "GET /v1/critics-and-suggestions?read=&skip=&take=" (admins): the
// contact-form messages, newest first.
func (s *Server) handleCritics(w http.ResponseWriter, r *http.Request) error {
	if _, err := requireAdmin(r); err != nil {
		return err
	}
	skip, take, err := paging(r)
	if err != nil {
		return err
	}
	f := store.CriticFilter{Offset: skip, Limit: take}
	if raw := r.URL.Query().Get("read"); raw != "" {
		read, err := strconv.ParseBool(raw)
		if err != nil {
			v := &store.Validation{}
			v.Correct("read")
			return v.Err()
		}
		f.Read = &read
	}
	cs, total, err := s.store.Critics(r.Context(), f)
	if err != nil {
		return err
	}
	forms := make([]*criticForm, len(cs))
	for i, c := range cs {
		forms[i] = criticFormOf(c)
	}
	ok(w, map[string]any{"critics": forms, "count": total})
	return nil
}

// handleCriticRead handles "PUT /v1/admin/critics/{id}/read {read}" (admins).
func (s *Server) handleCriticRead(w http.ResponseWriter, r *http.Request) error {
	if _, err := requireAdmin(r); err != nil {
		return err
	}
	id, err := pathInt64(r, "id")
	if err != nil {
		return err
	}
	var in struct {
		Read *bool `json:"read"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.Read == nil {
		v := &store.Validation{}
		v.Enter("read")
		return v.Err()
	}
	c, err := s.store.SetCriticRead(r.Context(), id, *in.Read)
	if err != nil {
		return err
	}
	ok(w, criticFormOf(c))
	return nil
}
