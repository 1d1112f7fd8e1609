package api

import (
	"context"
	"fmt"
	"net/http"
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
// and the code sent to it.
type leadAddBody struct {
	store.LeadInput
	NumberPhone looseString `json:"numberPhone"`
	OtpCode     looseString `json:"otpCode"`
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
	var codeHash []byte
	if u != nil {
		phone = u.NumberPhone
	} else {
		v := &store.Validation{}
		phone = checkPhone(v, string(in.NumberPhone))
		code := checkOtp(v, string(in.OtpCode))
		if err := v.Err(); err != nil {
			return err
		}
		codeHash = auth.HashCode(phone, code)
	}
	if n := len(in.Targets()); n == 0 || n > store.MaxLeadTargets {
		_, err := s.store.AddLead(ctx, &in.LeadInput, u, phone, codeHash, recoveryPolicy, s.addrKeyOf(r))
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
	l, err := s.store.AddLead(ctx, &in.LeadInput, u, phone, codeHash, recoveryPolicy, s.addrKeyOf(r))
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
