package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"kardan/auth"
	"kardan/store"
)

// Limits of requests for a price (README, Limits): per visitor (their number) and per client
// address an hour, and per professional a day, so nobody can flood an inbox or the SMS bill.
func leadLimits(phone, addr string, owners []int64) []store.Limit {
	ls := []store.Limit{
		{Kind: "lead_phone", Key: phone, Max: 5, Window: time.Hour},
		{Kind: "lead_ip", Key: addr, Max: 10, Window: time.Hour},
	}
	seen := map[int64]bool{}
	for _, o := range owners {
		if !seen[o] {
			seen[o] = true
			ls = append(ls, store.Limit{Kind: "lead_owner", Key: fmt.Sprint(o), Max: 20, Window: 24 * time.Hour})
		}
	}
	return ls
}

// handleSendLeadCode handles "POST /v1/send-sms/sendSmsForLead {numberPhone}": the code a
// signed-out visitor answers with their request, under the same limits as every other code.
func (s *Server) handleSendLeadCode(w http.ResponseWriter, r *http.Request) error {
	return s.sendAccountCode(w, r, store.PurposeLead)
}

// leadAddBody is the body of lead/add: the request, and for a signed-out visitor their number
// and the code sent to it, or the pass lead/verify gave for it.
type leadAddBody struct {
	store.LeadInput
	NumberPhone looseString `json:"numberPhone"`
	OtpCode     looseString `json:"otpCode"`
	LeadToken   looseString `json:"leadToken"`
}

// leadPassHash checks a pass token's shape (what auth.NewToken makes) and answers its stored
// form; a malformed one is refused like an expired one, on leadToken.
func leadPassHash(v *store.Validation, raw string) []byte {
	tok := strings.TrimSpace(raw)
	if len(tok) != 43 || strings.Trim(tok, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
		v.Add("leadToken", "lead_pass_expired", nil)
		return nil
	}
	return auth.HashToken(tok)
}

// handleLeadAdd handles "POST /v1/lead/add": a request for a price to one profile or up to 5 of
// one category in one city. Limits are reserved before the work and given back when it is
// refused; each asked owner is notified in the same transaction, and by SMS.
func (s *Server) handleLeadAdd(w http.ResponseWriter, r *http.Request) error {
	var in leadAddBody
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	ctx := r.Context()
	u := userFrom(r)
	phone := ""
	var proof store.LeadProof
	if u != nil {
		phone = u.NumberPhone
	} else {
		v := &store.Validation{}
		phone = checkPhone(v, string(in.NumberPhone))
		if strings.TrimSpace(string(in.LeadToken)) != "" {
			proof.PassHash = leadPassHash(v, string(in.LeadToken))
		} else {
			code := checkOtp(v, string(in.OtpCode))
			proof.CodeHash = auth.HashCode(phone, code)
		}
		if err := v.Err(); err != nil {
			return err
		}
	}
	if n := len(in.Targets()); n == 0 || n > store.MaxLeadTargets {
		_, err := s.store.AddLead(ctx, &in.LeadInput, u, phone, proof, recoveryPolicy, s.addrKeyOf(r))
		return err // the validation's own message
	}
	owners, err := s.store.LeadOwners(ctx, &in.LeadInput)
	if err != nil {
		return err
	}
	res, err := s.store.RateReserve(ctx, leadLimits(phone, s.addrKeyOf(r), owners)...)
	if err != nil {
		return err
	}
	l, err := s.store.AddLead(ctx, &in.LeadInput, u, phone, proof, recoveryPolicy, s.addrKeyOf(r))
	if err != nil {
		if rerr := res.Release(context.WithoutCancel(ctx)); rerr != nil {
			return rerr
		}
		return err
	}
	for _, t := range l.Targets {
		s.smsNotice(ctx, t.OwnerID, store.NotifyNewLead, t.ProfileName)
		// A request sent counts as each asked profile's quote request, whichever page sent
		// it (one profile's page, or a category's results asking several at once).
		s.countTap(r, t.ProfileID, t.OwnerID, store.StatQuote)
	}
	writeJSON(w, http.StatusOK, s.visitorLead(l), message(langOf(r), "lead_sent", map[string]any{"count": len(l.Targets)}))
	return nil
}

// leadVerifyLimit bounds the lead codes one client address may answer on lead/verify an hour
// (each code is tried at most 5 times, and an address is sent at most 20 codes an hour).
func leadVerifyLimit(addr string) store.Limit {
	return store.Limit{Kind: "lead_verify_ip", Key: addr, Max: 100, Window: time.Hour}
}

// leadUploadLimits bound a signed-out visitor's request photos: per client address (checked
// before the body is read) and per number, an hour. A pass takes two photos at most; these stop
// one number or one address from turning passes into free image hosting.
func leadUploadIPLimit(addr string) store.Limit {
	return store.Limit{Kind: "lead_upload_ip", Key: addr, Max: 20, Window: time.Hour}
}

func leadUploadPhoneLimit(phone string) store.Limit {
	return store.Limit{Kind: "lead_upload_phone", Key: phone, Max: 10, Window: time.Hour}
}

// handleLeadVerify handles "POST /v1/lead/verify {numberPhone, otpCode}": a signed-out visitor
// answers the lead code before sending, and gets a pass for that number, {leadToken,
// expire_at}, with which they may upload up to two photos (lead/upload) and send one request
// (lead/add) within half an hour. The code is used up.
func (s *Server) handleLeadVerify(w http.ResponseWriter, r *http.Request) error {
	phone, code, err := readPhoneCode(w, r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	if _, err := s.store.RateReserve(ctx, leadVerifyLimit(s.addrKeyOf(r))); err != nil {
		return err
	}
	tok, hash, err := auth.NewToken()
	if err != nil {
		return err
	}
	expire, err := s.store.IssueLeadPass(ctx, phone, auth.HashCode(phone, code), hash, recoveryPolicy, s.addrKeyOf(r))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"leadToken": tok, "expire_at": isoTime(expire)}, message(langOf(r), "lead_number_verified", nil))
	return nil
}

// handleLeadUpload handles "POST /v1/lead/upload": multipart numberPhone, leadToken (from
// lead/verify) and file, a signed-out visitor's photo for their request, through the same media
// pipeline and size and pixel limits as upload-file; at most two per pass. Answers like
// upload-file, {address, data}.
func (s *Server) handleLeadUpload(w http.ResponseWriter, r *http.Request) error {
	if s.media == nil {
		return store.Errorf(store.EUnavailable, "uploads_unavailable", nil)
	}
	ctx := r.Context()
	// Reserved before the body is read and never given back, as on upload-file.
	if _, err := s.store.RateReserve(ctx, leadUploadIPLimit(s.addrKeyOf(r))); err != nil {
		return err
	}
	fields, data, err := s.readMultipart(w, r, "numberPhone", "leadToken")
	if err != nil {
		return err
	}
	v := &store.Validation{}
	phone := checkPhone(v, fields["numberPhone"])
	hash := leadPassHash(v, fields["leadToken"])
	if len(data) == 0 {
		v.Enter("file")
	}
	if err := v.Err(); err != nil {
		return err
	}
	if err := s.store.CheckLeadUpload(ctx, phone, hash); err != nil {
		return err
	}
	if _, err := s.store.RateReserve(ctx, leadUploadPhoneLimit(phone)); err != nil {
		return err
	}
	return s.storeImage(w, r, data, func(rec *store.Upload) error {
		return s.store.RecordLeadUpload(ctx, phone, hash, rec)
	})
}

// leadAnswerForm is one professional's side of a request, as the visitor compares them.
type leadAnswerForm struct {
	UserTechnicalID int64   `json:"user_technical_id"`
	ProfileName     string  `json:"profile_name"`
	Slug            string  `json:"slug"`
	ProfileImage    string  `json:"profile_image"`
	Score           float64 `json:"score"`
	CountScorer     int     `json:"count_scorer"`
	Distance        *int64  `json:"distance"`
	Status          string  `json:"status"`
	Price           *int64  `json:"price"`
	Message         string  `json:"message"`
	AnswerAt        *string `json:"answer_at"`
	Phone           string  `json:"phone"`
}

// visitorLeadForm is a request as its visitor sees it.
type visitorLeadForm struct {
	ID         int64            `json:"id"`
	CategoryID *int64           `json:"category_id"`
	CityID     int64            `json:"city_id"`
	Location   []float64        `json:"location"`
	What       string           `json:"what"`
	When       string           `json:"when"`
	Photos     []string         `json:"photos"`
	CreateAt   string           `json:"create_at"`
	Answers    []leadAnswerForm `json:"answers"`
}

func leadLocation(l *store.Lead) []float64 {
	if l.Lat == nil || l.Long == nil {
		return nil
	}
	return []float64{*l.Long, *l.Lat}
}

func optTime(t *int64) *string {
	if t == nil {
		return nil
	}
	s := isoTime(*t)
	return &s
}

func (s *Server) visitorLead(l *store.Lead) visitorLeadForm {
	f := visitorLeadForm{ID: l.ID, CategoryID: l.CategoryID, CityID: l.CityID, Location: leadLocation(l), What: l.What, When: l.When,
		Photos: l.Photos, CreateAt: isoTime(l.CreateAt), Answers: []leadAnswerForm{}}
	if f.Photos == nil {
		f.Photos = []string{}
	}
	for _, t := range l.Targets {
		a := leadAnswerForm{UserTechnicalID: t.ProfileID, ProfileName: t.ProfileName, Slug: t.Slug, ProfileImage: t.ProfileImage,
			Score: t.Score, CountScorer: t.CountScorer, Status: t.Status, Price: t.Price, Message: t.Message, AnswerAt: optTime(t.AnswerAt),
			Phone: t.Contact}
		if l.Lat != nil && (t.Lat != 0 || t.Long != 0) {
			a.Distance = distanceTo(point{lat: *l.Lat, long: *l.Long}, t.Lat, t.Long)
		}
		f.Answers = append(f.Answers, a)
	}
	return f
}

// pageBody is the paging of the POST list routes.
type pageBody struct {
	Skip            int   `json:"skip"`
	Take            int   `json:"take"`
	UserTechnicalID int64 `json:"user_technical_id"`
}

func (p *pageBody) check() error {
	v := &store.Validation{}
	if p.Skip < 0 || p.Skip > maxSkip {
		v.Correct("skip")
	}
	if p.Take < 0 || p.Take > maxTake {
		v.Correct("take")
	}
	if p.Take == 0 {
		p.Take = defaultTake
	}
	return v.Err()
}

// handleLeadMine handles "POST /v1/lead/getMine {skip, take}": the signed-in visitor's requests,
// each with the professionals' answers side by side (score, distance, and once answered their
// number), including those made signed out with the account's number.
func (s *Server) handleLeadMine(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	var in pageBody
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	if err := in.check(); err != nil {
		return err
	}
	ls, total, err := s.store.MyLeads(r.Context(), u, in.Skip, in.Take)
	if err != nil {
		return err
	}
	out := make([]visitorLeadForm, len(ls))
	for i, l := range ls {
		out[i] = s.visitorLead(l)
	}
	ok(w, map[string]any{"leads": out, "count": total})
	return nil
}

// ownerLeadForm is a request as the professional sees it; numberPhone is empty until they
// answered.
type ownerLeadForm struct {
	ID              int64     `json:"id"`
	UserTechnicalID int64     `json:"user_technical_id"`
	ProfileName     string    `json:"profile_name"`
	CategoryID      *int64    `json:"category_id"`
	CityID          int64     `json:"city_id"`
	Location        []float64 `json:"location"`
	Distance        *int64    `json:"distance"`
	What            string    `json:"what"`
	When            string    `json:"when"`
	Photos          []string  `json:"photos"`
	CreateAt        string    `json:"create_at"`
	Status          string    `json:"status"`
	Price           *int64    `json:"price"`
	Message         string    `json:"message"`
	AnswerAt        *string   `json:"answer_at"`
	NumberPhone     string    `json:"numberPhone"`
}

func ownerLead(ol *store.OwnerLead) ownerLeadForm {
	l, t := ol.Lead, ol.Target
	f := ownerLeadForm{ID: l.ID, UserTechnicalID: t.ProfileID, ProfileName: t.ProfileName, CategoryID: l.CategoryID, CityID: l.CityID,
		Location: leadLocation(l), What: l.What, When: l.When, Photos: l.Photos, CreateAt: isoTime(l.CreateAt), Status: t.Status,
		Price: t.Price, Message: t.Message, AnswerAt: optTime(t.AnswerAt), NumberPhone: l.Phone}
	if f.Photos == nil {
		f.Photos = []string{}
	}
	if l.Lat != nil && (t.Lat != 0 || t.Long != 0) {
		f.Distance = distanceTo(point{lat: *l.Lat, long: *l.Long}, t.Lat, t.Long)
	}
	return f
}

// handleLeadForProfile handles "POST /v1/lead/getForProfile {user_technical_id, skip, take}":
// the owner's inbox (every profile of theirs without an id), with how many are still new.
func (s *Server) handleLeadForProfile(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	var in pageBody
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	if err := in.check(); err != nil {
		return err
	}
	ls, total, unread, err := s.store.LeadsForOwner(r.Context(), u.ID, in.UserTechnicalID, in.Skip, in.Take)
	if err != nil {
		return err
	}
	out := make([]ownerLeadForm, len(ls))
	for i, ol := range ls {
		out[i] = ownerLead(ol)
	}
	ok(w, map[string]any{"leads": out, "count": total, "unread": unread})
	return nil
}

// handleLeadAnswer handles "PUT /v1/lead/{id}/answer {price, message, user_technical_id}": the
// owner's quote. Another owner's lead is 404.
func (s *Server) handleLeadAnswer(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	id, err := pathInt64(r, "id")
	if err != nil {
		return err
	}
	var in struct {
		Price           int64  `json:"price"`
		Message         string `json:"message"`
		UserTechnicalID int64  `json:"user_technical_id"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	ol, err := s.store.AnswerLead(r.Context(), u.ID, id, in.UserTechnicalID, in.Price, in.Message)
	if err != nil {
		return err
	}
	ok(w, ownerLead(ol))
	return nil
}

// handleLeadStatus handles "PUT /v1/lead/{id}/status {status, user_technical_id}": seen,
// declined or done.
func (s *Server) handleLeadStatus(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	id, err := pathInt64(r, "id")
	if err != nil {
		return err
	}
	var in struct {
		Status          string `json:"status"`
		UserTechnicalID int64  `json:"user_technical_id"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	ol, err := s.store.SetLeadStatus(r.Context(), u.ID, id, in.UserTechnicalID, in.Status)
	if err != nil {
		return err
	}
	ok(w, ownerLead(ol))
	return nil
}
