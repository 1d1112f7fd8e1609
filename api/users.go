package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"kardan/auth"
	"kardan/store"
)

// nameMax bounds a user's display name, in characters.
const nameMax = 80

// userView is the user's read form; the password hash never leaves the server.
type userView struct {
	ID           int64  `json:"id"`
	NumberPhone  string `json:"numberPhone"`
	Name         string `json:"name"`
	ProfileImage string `json:"profileImage"`
	IsAdmin      bool   `json:"isAdmin"`
	CreateAt     int64  `json:"create_at"`
}

func viewUser(u *store.User) userView {
	return userView{ID: u.ID, NumberPhone: u.NumberPhone, Name: u.Name, ProfileImage: u.ProfileImage,
		IsAdmin: u.IsAdmin(), CreateAt: u.CreateAt}
}

// loginView is the answer of sign-in and sign-up.
type loginView struct {
	Token         string `json:"token"`
	ID            int64  `json:"id"`
	UserTechnical any    `json:"userTechnical"`
	IsAdmin       bool   `json:"isAdmin"`
}

// userTechnical answers the user's own business profiles (not deleted) for the login answer.
func (s *Server) userTechnical(ctx context.Context, userID int64) (any, error) {
	return s.store.ProfilesOfUser(ctx, userID)
}

func (s *Server) writeLogin(w http.ResponseWriter, r *http.Request, u *store.User, token string) error {
	profiles, err := s.userTechnical(r.Context(), u.ID)
	if err != nil {
		return err
	}
	ok(w, loginView{Token: token, ID: u.ID, UserTechnical: profiles, IsAdmin: u.IsAdmin()})
	return nil
}

func (s *Server) newSession(r *http.Request) (string, store.NewSession, error) {
	token, hash, err := auth.NewToken()
	if err != nil {
		return "", store.NewSession{}, err
	}
	return token, store.NewSession{TokenHash: hash, TTL: auth.SessionTTL, ClientIP: clientIPOf(r), UserAgent: r.UserAgent()}, nil
}

// handleUserCreate handles "POST /v1/user/create": checks the SMS code, creates the account and
// signs it in (answered like login).
func (s *Server) handleUserCreate(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		NumberPhone  looseString `json:"numberPhone"`
		Name         string      `json:"name"`
		Password     string      `json:"password"`
		ProfileImage string      `json:"profileImage"`
		OtpCode      looseString `json:"otpCode"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	v := &store.Validation{}
	phone := checkPhone(v, string(in.NumberPhone))
	name := checkName(v, in.Name)
	checkPassword(v, in.Password, true)
	code := store.ASCIIDigits(strings.TrimSpace(string(in.OtpCode)))
	switch {
	case code == "":
		v.Enter("otpCode")
	case len(code) != auth.CodeDigits || strings.Trim(code, "0123456789") != "":
		v.Correct("otpCode")
	}
	// A new account has uploaded nothing yet, so it can hold no image of its own.
	if strings.TrimSpace(in.ProfileImage) != "" {
		v.Correct("profileImage")
	}
	if err := v.Err(); err != nil {
		return err
	}
	// Code answers are counted per client address before anything is looked up, so nobody can
	// probe numbers here faster than the sign-up SMS limit lets them ask for codes.
	if _, err := s.store.RateReserve(r.Context(), signupTryLimit(s.addrKeyOf(r))); err != nil {
		return err
	}
	// The code is checked before the password is hashed, so wrong or missing codes cost no
	// argon2 time: only someone holding a live code can make the server hash.
	codeHash := auth.HashCode(phone, code)
	if err := s.store.CheckSignupCode(r.Context(), phone, codeHash, codePolicy); err != nil {
		return err
	}
	hash, err := s.hasher.Hash(r.Context(), in.Password)
	if err != nil {
		return err
	}
	token, ns, err := s.newSession(r)
	if err != nil {
		return err
	}
	u := &store.User{NumberPhone: phone, Name: name, PasswordHash: hash}
	if err := s.store.Register(r.Context(), u, codeHash, codePolicy, ns); err != nil {
		return err
	}
	return s.writeLogin(w, r, u, token)
}

// handleLogin handles "POST /v1/user/login". An unknown number and a wrong password get the
// same answer in the same time; failures are limited per number and per client address.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		NumberPhone looseString `json:"numberPhone"`
		Password    string      `json:"password"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	v := &store.Validation{}
	phone := checkPhone(v, string(in.NumberPhone))
	if in.Password == "" {
		v.Enter("password")
	}
	if err := v.Err(); err != nil {
		return err
	}
	ctx := r.Context()
	addr := s.addrKeyOf(r)
	leave, ok := s.loginFlight.enter("phone:"+phone, "addr:"+addr)
	if !ok {
		return busy()
	}
	defer leave()
	// The attempt is recorded as a failure before the password is verified, so a burst gets
	// exactly the allowance checked; a right password takes its record back.
	limits := loginLimits(phone, addr)
	res, err := s.store.RateReserve(ctx, limits...)
	if err != nil {
		return err
	}
	u, err := s.store.UserByPhone(ctx, phone)
	var good bool
	switch {
	case store.ErrorCode(err) == store.ENotFound:
		s.hasher.VerifyDummy(ctx, in.Password)
	case err != nil:
		return err
	default:
		if good, err = s.hasher.Verify(ctx, u.PasswordHash, in.Password); err != nil {
			return err
		}
	}
	if !good {
		return store.Errorf(store.EInvalid, "invalid_credentials", nil)
	}
	if err := res.Release(ctx); err != nil {
		return err
	}
	if err := s.store.RateClear(ctx, limits[0]); err != nil {
		return err
	}
	token, ns, err := s.newSession(r)
	if err != nil {
		return err
	}
	if err := s.store.CreateSession(ctx, u.ID, ns); err != nil {
		return err
	}
	return s.writeLogin(w, r, u, token)
}

// handleUserGet handles "GET /v1/user": the signed-in user.
func (s *Server) handleUserGet(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	ok(w, viewUser(u))
	return nil
}

// handleUserEdit handles "PUT /v1/user/edit": one's own name, password and picture. An empty
// or absent password leaves it unchanged; a new one needs currentPassword or otpCode (a reset
// code sent to the account's number) and signs out every other session.
func (s *Server) handleUserEdit(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		ID              looseString `json:"id"`
		Password        *string     `json:"password"`
		CurrentPassword *string     `json:"currentPassword"`
		OtpCode         looseString `json:"otpCode"`
		Name            *string     `json:"name"`
		ProfileImage    *string     `json:"profileImage"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.ID != "" {
		id, err := strconv.ParseInt(string(in.ID), 10, 64)
		if err != nil || id <= 0 {
			return store.Errorf(store.EInvalid, "bad_id", nil)
		}
		if id != u.ID {
			return store.Forbidden()
		}
	}
	v := &store.Validation{}
	var upd store.UserUpdate
	if in.Name != nil {
		name := checkName(v, *in.Name)
		upd.Name = &name
	}
	if in.ProfileImage != nil {
		img := strings.TrimSpace(*in.ProfileImage)
		if img != "" {
			owned, err := s.store.UploadOwnedBy(r.Context(), u.ID, img)
			if err != nil {
				return err
			}
			if !owned {
				v.Correct("profileImage")
			}
			// Only the path is kept: a URL around it (another host, a query, another scheme)
			// would be served verbatim to every client that shows the picture.
			img = store.UploadPath(img)
		}
		upd.ProfileImage = &img
	}
	if in.Password != nil && *in.Password != "" {
		checkPassword(v, *in.Password, true)
		// A session alone does not prove the person: a new password needs the current one or
		// a fresh code sent to the account's number.
		if !v.Has("password") {
			proof, err := s.provePasswordChange(r.Context(), v, u, in.CurrentPassword, in.OtpCode)
			if err != nil {
				return err
			}
			upd.Code = proof
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	if in.Password != nil && *in.Password != "" {
		hash, err := s.hasher.Hash(r.Context(), *in.Password)
		if err != nil {
			return err
		}
		upd.PasswordHash = &hash
	}
	nu, err := s.store.UpdateUser(r.Context(), u.ID, upd, sessionHash(r))
	if err != nil {
		return err
	}
	ok(w, viewUser(nu))
	return nil
}

// handleLogout handles "POST /v1/user/logout": the session's token stops working at once.
func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) error {
	if _, err := requireUser(r); err != nil {
		return err
	}
	if err := s.store.RevokeSession(r.Context(), sessionHash(r)); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, nil, message(langOf(r), "signed_out", nil))
	return nil
}

// checkPhone records a missing or malformed number and answers the normalised one.
func checkPhone(v *store.Validation, raw string) string {
	if strings.TrimSpace(raw) == "" {
		v.Enter("numberPhone")
		return ""
	}
	phone, ok := store.NormalizeMobile(raw)
	if !ok {
		v.Correct("numberPhone")
	}
	return phone
}

// checkName records a name too long and answers it trimmed; the name is optional.
func checkName(v *store.Validation, raw string) string {
	name := strings.TrimSpace(raw)
	if utf8.RuneCountInString(name) > nameMax {
		v.Add("name", "too_long", map[string]any{"max": nameMax})
	}
	return name
}

// checkPassword records a missing (when required), short, long or common password.
func checkPassword(v *store.Validation, pw string, required bool) {
	if pw == "" {
		if required {
			v.Enter("password")
		}
		return
	}
	short, long := auth.ValidPasswordLength(pw)
	switch {
	case short:
		v.Add("password", "password_too_short", map[string]any{"min": auth.PasswordMin})
	case long:
		v.Add("password", "too_long", map[string]any{"max": auth.PasswordMax})
	case auth.CommonPassword(pw):
		v.Add("password", "password_common", nil)
	}
}

// looseString reads a JSON string or number as text: clients send numbers, codes and ids either
// way (a code typed into a number field, an id read from a cookie).
type looseString string

func (l *looseString) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*l = looseString(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return err
		}
		return &json.UnmarshalTypeError{Value: string(b), Type: reflect.TypeOf("")}
	}
	*l = looseString(n.String())
	return nil
}
