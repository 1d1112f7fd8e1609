package api

import (
	"context"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"kardan/auth"
	"kardan/store"
)

// ownerRoutes registers the verified badge's and claiming's routes (issue #21, our additions).
// Paths under /user-technical go on its subrouter pr, which owns that prefix.
func (s *Server) ownerRoutes(v1, pr *mux.Router) {
	id := "{id:[0-9]+}"
	v1.HandleFunc("/admin/verification", handle(s.handleAdminVerifications)).Methods(http.MethodGet)
	v1.HandleFunc("/admin/user-technical/"+id+"/verification/start", handle(s.handleVerificationStart)).Methods(http.MethodPost)
	v1.HandleFunc("/admin/user-technical/"+id+"/verification", handle(s.handleVerificationSet)).Methods(http.MethodPut)
	pr.HandleFunc("/"+id+"/verification", handle(s.handleVerificationGet)).Methods(http.MethodGet)
	pr.HandleFunc("/"+id+"/verification/confirm", handle(s.handleVerificationConfirm)).Methods(http.MethodPost)
	v1.HandleFunc("/admin/user-technical/createListing", handle(s.handleListingCreate)).Methods(http.MethodPost)
	v1.HandleFunc("/send-sms/sendSmsForClaim", handle(s.handleSendClaimCode)).Methods(http.MethodPost)
	v1.HandleFunc("/claim/add", handle(s.handleClaimAdd)).Methods(http.MethodPost)
	v1.HandleFunc("/claim/mine", handle(s.handleClaimsMine)).Methods(http.MethodGet)
	v1.HandleFunc("/admin/claim", handle(s.handleAdminClaims)).Methods(http.MethodGet)
	v1.HandleFunc("/admin/claim/"+id+"/status", handle(s.handleAdminClaimStatus)).Methods(http.MethodPut)
}

// verificationForm is a profile's verification state for its owner and admins.
type verificationForm struct {
	*store.Verification
	CreateAt   *string `json:"create_at"`
	ConfirmAt  *string `json:"confirm_at"`
	VerifiedAt *string `json:"verified_at"`
}

func verificationFormOf(v *store.Verification) verificationForm {
	return verificationForm{Verification: v, CreateAt: optTime(v.CreateAt), ConfirmAt: optTime(v.ConfirmAt), VerifiedAt: optTime(v.VerifiedAt)}
}

// codeAnswer is what a route that sent a code answers: the number as the caller may show it
// (claiming masks it first) and the code's timings.
func codeAnswer(phone string) map[string]any {
	return map[string]any{
		"numberPhone": phone,
		"expiresIn":   int(codePolicy.TTL / time.Second),
		"resendIn":    int(codePolicy.Cooldown / time.Second),
	}
}

// maskPhone hides the middle of a number: the claimant learns which of the listing's numbers
// the code went to, not a number in full.
func maskPhone(p string) string {
	if len(p) < 8 {
		return p
	}
	return p[:4] + "***" + p[len(p)-4:]
}

// sendOrWithdraw sends code to phone and withdraws the issued code when the provider refuses it,
// so the failed send neither counts nor can be answered.
func (s *Server) sendOrWithdraw(ctx context.Context, phone, code string, codeID int64) error {
	if err := s.sms.Send(ctx, phone, code); err != nil {
		if werr := s.store.WithdrawCode(context.WithoutCancel(ctx), codeID); werr != nil {
			return werr
		}
		return &store.Error{Code: store.EUnavailable, Key: "sms_failed", Err: err}
	}
	return nil
}

// handleVerificationStart handles "POST /v1/admin/user-technical/{id}/verification/start
// {numberPhone?}": a code to one of the profile's listed mobile numbers (the first when none is
// named), through the sign-up codes' sender and limits; the owner answers it.
func (s *Server) handleVerificationStart(w http.ResponseWriter, r *http.Request) error {
	u, err := requireAdmin(r)
	if err != nil {
		return err
	}
	id, err := pathInt64(r, "id")
	if err != nil {
		return err
	}
	var in struct {
		NumberPhone looseString `json:"numberPhone"`
	}
	if r.ContentLength != 0 {
		if err := decodeJSON(w, r, &in); err != nil {
			return err
		}
	}
	want := ""
	if string(in.NumberPhone) != "" {
		v := &store.Validation{}
		want = checkPhone(v, string(in.NumberPhone))
		if err := v.Err(); err != nil {
			return err
		}
	}
	code, err := auth.NewCode()
	if err != nil {
		return err
	}
	ctx := r.Context()
	phone, codeID, err := s.store.StartVerification(ctx, u, id, want, store.SignupCode{ClientIP: s.addrKeyOf(r)},
		codePolicy, func(phone string) []byte { return auth.HashCode(phone, code) })
	if err != nil {
		return err
	}
	if err := s.sendOrWithdraw(ctx, phone, code, codeID); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, codeAnswer(phone), message(langOf(r), "code_sent", map[string]any{"phone": phone}))
	return nil
}

// handleVerificationConfirm handles "POST /v1/user-technical/{id}/verification/confirm
// {otpCode}": the owner's answer to the code sent to the business's number. Anyone else: 404.
func (s *Server) handleVerificationConfirm(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	id, err := pathInt64(r, "id")
	if err != nil {
		return err
	}
	var in struct {
		OtpCode looseString `json:"otpCode"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	v := &store.Validation{}
	code := checkOtp(v, string(in.OtpCode))
	if err := v.Err(); err != nil {
		return err
	}
	ctx := r.Context()
	if err := s.store.ConfirmVerification(ctx, u, id, func(phone string) []byte { return auth.HashCode(phone, code) }, codePolicy); err != nil {
		return err
	}
	vf, err := s.store.ProfileVerification(ctx, id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, verificationFormOf(vf), message(langOf(r), "verification_confirmed", nil))
	return nil
}

// handleVerificationGet handles "GET /v1/user-technical/{id}/verification": the state of the
// profile's verification, for its owner and admins (anyone else: 404).
func (s *Server) handleVerificationGet(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	id, err := pathInt64(r, "id")
	if err != nil {
		return err
	}
	ctx := r.Context()
	p, err := s.store.Profile(ctx, id)
	if err != nil {
		return err
	}
	if p.UserID != u.ID && !u.IsAdmin() {
		return store.NotFound()
	}
	vf, err := s.store.ProfileVerification(ctx, id)
	if err != nil {
		return err
	}
	ok(w, verificationFormOf(vf))
	return nil
}

// handleVerificationSet handles "PUT /v1/admin/user-technical/{id}/verification {verified,
// description}": the admin's decision, with a note of what was checked (or why the badge goes),
// kept in the audit log.
func (s *Server) handleVerificationSet(w http.ResponseWriter, r *http.Request) error {
	u, err := requireAdmin(r)
	if err != nil {
		return err
	}
	id, err := pathInt64(r, "id")
	if err != nil {
		return err
	}
	var in struct {
		Verified    *bool  `json:"verified"`
		Description string `json:"description"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.Verified == nil {
		v := &store.Validation{}
		v.Enter("verified")
		return v.Err()
	}
	ctx := r.Context()
	p, err := s.store.SetVerified(ctx, u, id, *in.Verified, in.Description)
	if err != nil {
		return err
	}
	s.syncIndex(ctx)
	return s.writeOwnProfile(w, r, p, u)
}

// handleAdminVerifications handles "GET /v1/admin/verification": the verifications under way,
// those the owner confirmed first.
func (s *Server) handleAdminVerifications(w http.ResponseWriter, r *http.Request) error {
	if _, err := requireAdmin(r); err != nil {
		return err
	}
	vs, err := s.store.Verifications(r.Context())
	if err != nil {
		return err
	}
	out := make([]verificationForm, len(vs))
	for i, v := range vs {
		out[i] = verificationFormOf(v)
	}
	ok(w, map[string]any{"verifications": out, "count": len(out)})
	return nil
}
