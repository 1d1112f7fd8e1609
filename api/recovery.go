package api

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"kardan/auth"
	"kardan/store"
)

// recoveryPolicy are the rules of reset and sign-in codes: the sign-up rules (DESIGN.md), and
// the sends of every purpose count together against the cooldown and the hourly caps.
var recoveryPolicy = codePolicy

// passwordCheckLimit bounds wrong current passwords typed on the account page, per account: a
// stolen session must not become a password oracle.
func passwordCheckLimit(userID int64) store.Limit {
	return store.Limit{Kind: "password_check", Key: strconv.FormatInt(userID, 10), Max: 10, Window: 15 * time.Minute}
}

// handleSendResetCode handles "POST /v1/send-sms/sendSmsForReset": a code to reset the password.
func (s *Server) handleSendResetCode(w http.ResponseWriter, r *http.Request) error {
	return s.sendAccountCode(w, r, store.PurposeReset)
}

// handleSendLoginCode handles "POST /v1/send-sms/sendSmsForLogin": a code to sign in without the
// password.
func (s *Server) handleSendLoginCode(w http.ResponseWriter, r *http.Request) error {
	return s.sendAccountCode(w, r, store.PurposeLogin)
}

// sendAccountCode issues and sends a code for purpose. A number with no account is answered
// exactly as one with an account (same answer, same limits, an SMS all the same): whether a
// number is registered is learnt only by answering the code that reached its phone.
func (s *Server) sendAccountCode(w http.ResponseWriter, r *http.Request, purpose string) error {
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
	id, err := s.store.IssueCode(ctx, store.SignupCode{NumberPhone: phone, ClientIP: s.addrKeyOf(r),
		CodeHash: auth.HashCode(phone, code)}, purpose, recoveryPolicy)
	if err != nil {
		return err
	}
	if err := s.sms.Send(ctx, phone, code); err != nil {
		if werr := s.store.WithdrawCode(context.WithoutCancel(ctx), id); werr != nil {
			return werr
		}
		return &store.Error{Code: store.EUnavailable, Key: "sms_failed", Err: err}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"numberPhone": phone,
		"expiresIn":   int(recoveryPolicy.TTL / time.Second),
		"resendIn":    int(recoveryPolicy.Cooldown / time.Second),
	}, message(langOf(r), "code_sent", map[string]any{"phone": phone}))
	return nil
}

// checkOtp records a missing or malformed code (six digits, Persian or Arabic digits allowed)
// and answers it in ASCII digits.
func checkOtp(v *store.Validation, raw string) string {
	code := store.ASCIIDigits(strings.TrimSpace(raw))
	switch {
	case code == "":
		v.Enter("otpCode")
	case len(code) != auth.CodeDigits || strings.Trim(code, "0123456789") != "":
		v.Correct("otpCode")
	}
	return code
}

// handleResetPassword handles "POST /v1/user/reset-password": with a live reset code, sets a new
// password, signs out every session and signs in (answered like login).
func (s *Server) handleResetPassword(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		NumberPhone looseString `json:"numberPhone"`
		OtpCode     looseString `json:"otpCode"`
		Password    string      `json:"password"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	v := &store.Validation{}
	phone := checkPhone(v, string(in.NumberPhone))
	code := checkOtp(v, string(in.OtpCode))
	checkPassword(v, in.Password, true)
	if err := v.Err(); err != nil {
		return err
	}
	proof := store.CodeProof{NumberPhone: phone, Purpose: store.PurposeReset, CodeHash: auth.HashCode(phone, code), Policy: recoveryPolicy}
	// A wrong code costs no argon2 time: only the holder of a live code makes the server hash.
	ctx := r.Context()
	if err := s.store.CheckCode(ctx, proof); err != nil {
		return err
	}
	hash, err := s.hasher.Hash(ctx, in.Password)
	if err != nil {
		return err
	}
	token, ns, err := s.newSession(r)
	if err != nil {
		return err
	}
	u, err := s.store.ResetPassword(ctx, proof, hash, ns)
	if err != nil {
		return err
	}
	return s.writeLogin(w, r, u, token)
}

// handleLoginWithCode handles "POST /v1/user/loginWithCode": signs in with a live sign-in code
// alone. Failed password sign-ins of the number do not slow it: the phone's holder always gets in.
func (s *Server) handleLoginWithCode(w http.ResponseWriter, r *http.Request) error {
	phone, code, err := readPhoneCode(w, r)
	if err != nil {
		return err
	}
	token, ns, err := s.newSession(r)
	if err != nil {
		return err
	}
	u, err := s.store.LoginWithCode(r.Context(), store.CodeProof{NumberPhone: phone, Purpose: store.PurposeLogin,
		CodeHash: auth.HashCode(phone, code), Policy: recoveryPolicy}, ns)
	if err != nil {
		return err
	}
	return s.writeLogin(w, r, u, token)
}

// provePasswordChange checks what a password change on the account page must show: the current
// password, or a live reset code sent to the account's number (answered with the change, in
// updates's transaction). Wrong current passwords are limited per account.
func (s *Server) provePasswordChange(ctx context.Context, v *store.Validation, u *store.User, current *string, otp looseString) (*store.CodeProof, error) {
	switch {
	case current != nil && *current != "":
		// The attempt is reserved as a failure before the hash is checked, so a burst cannot
		// check more than the limit allows; a right password gives its slot back.
		res, err := s.store.RateReserve(ctx, passwordCheckLimit(u.ID))
		if err != nil {
			return nil, err
		}
		good, err := s.hasher.Verify(ctx, u.PasswordHash, *current)
		if err != nil {
			return nil, err
		}
		if !good {
			v.Add("currentPassword", "wrong_password", nil)
			return nil, nil
		}
		return nil, res.Release(context.WithoutCancel(ctx))
	case strings.TrimSpace(string(otp)) != "":
		code := checkOtp(v, string(otp))
		if v.Has("otpCode") {
			return nil, nil
		}
		return &store.CodeProof{NumberPhone: u.NumberPhone, Purpose: store.PurposeReset,
			CodeHash: auth.HashCode(u.NumberPhone, code), Policy: recoveryPolicy}, nil
	}
	v.Add("currentPassword", "password_proof_needed", nil)
	return nil, nil
}

// readPhoneCode decodes a body of a number and a code alone, {numberPhone, otpCode}, and answers
// both checked (code sign-in and the lead pass read the same body).
func readPhoneCode(w http.ResponseWriter, r *http.Request) (phone, code string, err error) {
	var in struct {
		NumberPhone looseString `json:"numberPhone"`
		OtpCode     looseString `json:"otpCode"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return "", "", err
	}
	v := &store.Validation{}
	phone = checkPhone(v, string(in.NumberPhone))
	code = checkOtp(v, string(in.OtpCode))
	return phone, code, v.Err()
}
