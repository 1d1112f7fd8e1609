package api

import (
	"context"
	"net/http"
	"time"

	"kardan/auth"
	"kardan/store"
)

// codePolicy are DESIGN.md's rules for sign-up codes.
var codePolicy = store.CodePolicy{
	TTL:      auth.CodeTTL,
	MaxTries: auth.CodeMaxTries,
	Cooldown: time.Minute,
	PerPhone: 5,
	PerIP:    20,
	Window:   time.Hour,
}

// handleSendSignupCode handles "POST /v1/send-sms/sendSmsForSignUp": a 6-digit code, stored
// hashed and sent by SMS to an unregistered number; a registered one gets a notice instead, and
// the client the same answer either way. A send the provider refuses is withdrawn,
// so it neither counts against the limits nor can be answered.
func (s *Server) handleSendSignupCode(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		NumberPhone looseString `json:"numberPhone"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	v := &store.Validation{}
	phone := checkPhone(v, string(in.NumberPhone))
	if err := v.Err(); err != nil {
		return err
	}
	code, err := auth.NewCode()
	if err != nil {
		return err
	}
	ctx := r.Context()
	id, err := s.store.IssueSignupCode(ctx, store.SignupCode{NumberPhone: phone, ClientIP: s.addrKeyOf(r),
		CodeHash: auth.HashCode(phone, code)}, codePolicy)
	if err != nil {
		return err
	}
	// A registered number is counted and answered like any other; its holder gets a notice
	// (sign in, or reset the password) instead of a code nobody could use.
	send := func() error { return s.sms.Send(ctx, phone, code) }
	if _, err := s.store.UserByPhone(ctx, phone); err == nil {
		send = func() error { return auth.SendNotice(ctx, s.sms, phone, auth.NoticeAccountExists) }
	} else if store.ErrorCode(err) != store.ENotFound {
		return err
	}
	if err := send(); err != nil {
		if werr := s.store.WithdrawCode(context.WithoutCancel(ctx), id); werr != nil {
			return werr
		}
		return &store.Error{Code: store.EUnavailable, Key: "sms_failed", Err: err}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"numberPhone": phone,
		"expiresIn":   int(codePolicy.TTL / time.Second),
		"resendIn":    int(codePolicy.Cooldown / time.Second),
	}, message(langOf(r), "code_sent", map[string]any{"phone": phone}))
	return nil
}
