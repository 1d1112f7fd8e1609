package api

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"kardan/auth"
	"kardan/store"
)

// claimLimits bound claim codes beyond every code's own limits (README, Limits): per claimant a
// day, so one account cannot wear down many listings, and per listing a day, so many accounts
// cannot flood one business's phone.
func claimLimits(userID, profileID int64) []store.Limit {
	return []store.Limit{
		{Kind: "claim_user", Key: strconv.FormatInt(userID, 10), Max: 5, Window: 24 * time.Hour},
		{Kind: "claim_profile", Key: strconv.FormatInt(profileID, 10), Max: 10, Window: 24 * time.Hour},
	}
}

// claimForm is a claim as the claimant and admins see it.
type claimForm struct {
	*store.Claim
	RegisterAdmin registerAdmin `json:"register_admin"`
	CreateAt      string        `json:"create_at"`
	UpdateAt      string        `json:"update_at"`
}

// claimFormOf answers c's form; forAdmin keeps the claimant's sign-in number and the listed
// number in full.
func claimFormOf(c *store.Claim, forAdmin bool) claimForm {
	cc := *c
	if !forAdmin {
		cc.NumberPhone, cc.Phone = "", maskPhone(c.Phone)
	}
	return claimForm{Claim: &cc, RegisterAdmin: registerAdmin{AdminRegisterID: c.AdminID, Description: c.AdminNote},
		CreateAt: isoTime(c.CreateAt), UpdateAt: isoTime(c.UpdateAt)}
}

// handleListingCreate handles "POST /v1/admin/user-technical/createListing" (profile as sent):
// an admin lists a business, which can then claim it.
func (s *Server) handleListingCreate(w http.ResponseWriter, r *http.Request) error {
	u, err := requireAdmin(r)
	if err != nil {
		return err
	}
	var in store.ProfileInput
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	p, err := s.store.CreateListing(r.Context(), u, &in)
	if err != nil {
		return err
	}
	s.syncIndex(r.Context())
	return s.writeOwnProfile(w, r, p, u)
}

// handleSendClaimCode handles "POST /v1/send-sms/sendSmsForClaim {user_technical_id}": a code
// to the listing's listed mobile number, for a signed-in claimant. The answer shows the number
// masked; the limits are every code's plus claimLimits, given back when the send fails.
func (s *Server) handleSendClaimCode(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		ProfileID int64 `json:"user_technical_id"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.ProfileID <= 0 {
		v := &store.Validation{}
		v.Enter("user_technical_id")
		return v.Err()
	}
	ctx := r.Context()
	res, err := s.store.RateReserve(ctx, claimLimits(u.ID, in.ProfileID)...)
	if err != nil {
		return err
	}
	code, err := auth.NewCode()
	if err == nil {
		var phone string
		var codeID int64
		phone, codeID, err = s.store.StartClaim(ctx, u, in.ProfileID, store.SignupCode{ClientIP: s.addrKeyOf(r)}, codePolicy,
			func(phone string) []byte { return auth.HashCode(phone, code) })
		if err == nil {
			if err = s.sendOrWithdraw(ctx, phone, code, codeID); err == nil {
				masked := maskPhone(phone)
				writeJSON(w, http.StatusOK, codeAnswer(masked), message(langOf(r), "code_sent", map[string]any{"phone": masked}))
				return nil
			}
		}
	}
	if rerr := res.Release(context.WithoutCancel(ctx)); rerr != nil {
		return rerr
	}
	return err
}

// handleClaimAdd handles "POST /v1/claim/add {user_technical_id, otpCode, description}": the
// claim, with the code that proves the claimant answers the listed number; it waits for an admin.
func (s *Server) handleClaimAdd(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		ProfileID   int64       `json:"user_technical_id"`
		OtpCode     looseString `json:"otpCode"`
		Description string      `json:"description"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	v := &store.Validation{}
	if in.ProfileID <= 0 {
		v.Enter("user_technical_id")
	}
	code := checkOtp(v, string(in.OtpCode))
	if err := v.Err(); err != nil {
		return err
	}
	c, err := s.store.AddClaim(r.Context(), u, in.ProfileID, in.Description,
		func(phone string) []byte { return auth.HashCode(phone, code) }, codePolicy)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, claimFormOf(c, false), message(langOf(r), "claim_sent", nil))
	return nil
}

// handleClaimsMine handles "GET /v1/claim/mine": the signed-in user's claims, newest first.
func (s *Server) handleClaimsMine(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	cs, err := s.store.Claims(r.Context(), "", u.ID)
	if err != nil {
		return err
	}
	out := make([]claimForm, len(cs))
	for i, c := range cs {
		out[i] = claimFormOf(c, false)
	}
	ok(w, map[string]any{"claims": out, "count": len(out)})
	return nil
}

// handleAdminClaims handles "GET /v1/admin/claim?status=": claims of one status (default
// Pending), oldest first.
func (s *Server) handleAdminClaims(w http.ResponseWriter, r *http.Request) error {
	if _, err := requireAdmin(r); err != nil {
		return err
	}
	status := r.URL.Query().Get("status")
	switch status {
	case "":
		status = store.ClaimPending
	case "all":
		status = ""
	case store.ClaimPending, store.ClaimAccepted, store.ClaimRejected:
	default:
		v := &store.Validation{}
		v.Correct("status")
		return v.Err()
	}
	cs, err := s.store.Claims(r.Context(), status, 0)
	if err != nil {
		return err
	}
	out := make([]claimForm, len(cs))
	for i, c := range cs {
		out[i] = claimFormOf(c, true)
	}
	ok(w, map[string]any{"claims": out, "count": len(out)})
	return nil
}

// handleAdminClaimStatus handles "PUT /v1/admin/claim/{id}/status {status, description}":
// Accepted moves the listing to the claimant (one claim per listing can win), Rejected closes
// the claim; the claimant is told either way.
func (s *Server) handleAdminClaimStatus(w http.ResponseWriter, r *http.Request) error {
	u, id, move, err := moderationMove(w, r, nil)
	if err != nil {
		return err
	}
	ctx := r.Context()
	c, err := s.store.DecideClaim(ctx, u, id, move.Status, move.Description)
	if err != nil {
		return err
	}
	s.smsNotice(ctx, c.UserID, store.NotifyModeration, c.ProfileName, move.Status)
	s.syncIndex(ctx)
	writeJSON(w, http.StatusOK, claimFormOf(c, true), message(langOf(r), "claim_decided", nil))
	return nil
}
