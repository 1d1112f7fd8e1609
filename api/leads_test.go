package api_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"kardan/store"
)

type leadAnswerView struct {
	UserTechnicalID int64   `json:"user_technical_id"`
	ProfileName     string  `json:"profile_name"`
	Score           float64 `json:"score"`
	Distance        *int64  `json:"distance"`
	Status          string  `json:"status"`
	Price           *int64  `json:"price"`
	Message         string  `json:"message"`
	Phone           string  `json:"phone"`
}

type visitorLeadView struct {
	ID      int64            `json:"id"`
	What    string           `json:"what"`
	Answers []leadAnswerView `json:"answers"`
}

type ownerLeadView struct {
	ID              int64  `json:"id"`
	UserTechnicalID int64  `json:"user_technical_id"`
	What            string `json:"what"`
	Status          string `json:"status"`
	NumberPhone     string `json:"numberPhone"`
}

type ownerInbox struct {
	Leads  []ownerLeadView `json:"leads"`
	Count  int             `json:"count"`
	Unread int             `json:"unread"`
}

// leadWorld adds two more plumbers in the owner's city, each with a map point.
type leadWorld struct {
	*communityWorld
	plumbers [3]*store.Profile
	tokens   [3]string
	phones   [3]string
}

func newLeadWorld(t *testing.T) *leadWorld {
	t.Helper()
	w := &leadWorld{communityWorld: newCommunityWorld(t)}
	ctx := context.Background()
	w.plumbers[0], w.tokens[0], w.phones[0] = w.profile, w.owner, "09120000001"
	for i := 1; i < 3; i++ {
		phone := fmt.Sprintf("0912000010%d", i)
		tok, u := w.user(t, phone, "لوله‌کش", store.RoleUser)
		in := &store.ProfileInput{ProfileName: fmt.Sprintf("لوله‌کشی %d", i), ProvinceID: 1, CityID: 1, RangeWorker: 1, CategoryList: []int64{101},
			Location: &store.Location{Lat: 35.70 + float64(i)/100, Long: 51.40}}
		p, err := w.Store.CreateProfile(ctx, u.ID, in, false)
		if err != nil {
			t.Fatal(err)
		}
		w.plumbers[i], w.tokens[i], w.phones[i] = p, tok, phone
	}
	return w
}

func (w *leadWorld) ids() string {
	return fmt.Sprintf("[%d,%d,%d]", w.plumbers[0].ID, w.plumbers[1].ID, w.plumbers[2].ID)
}

func (w *leadWorld) inbox(t *testing.T, token string) ownerInbox {
	t.Helper()
	return decodePayload[ownerInbox](t, w.must(t, req{method: "POST", path: "/v1/lead/getForProfile", token: token, body: `{}`}))
}

// TestLeadsOverHTTP is the whole story: a signed-out visitor proves their number and asks three
// plumbers; the owners are told (bell and SMS) but see no number until they answer; another
// owner never sees the lead; the visitor compares the answers side by side and can call.
func TestLeadsOverHTTP(t *testing.T) {
	w := newLeadWorld(t)
	visitor := "09130000001"
	body := func(code string) string {
		return fmt.Sprintf(`{"user_technical_ids":%s,"category_id":101,"city_id":1,"lat":35.70,"long":51.40,"what":"شیر آشپزخانه چکه می‌کند",
			"when":"فردا صبح","numberPhone":%q,"otpCode":%q}`, w.ids(), visitor, code)
	}
	w.must(t, req{method: "POST", path: "/v1/send-sms/sendSmsForLead", body: fmt.Sprintf(`{"numberPhone":%q}`, visitor), ip: "10.0.0.1"})
	code := w.SMS.code(visitor)
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	w.wantError(t, req{method: "POST", path: "/v1/lead/add", body: body(wrong), ip: "10.0.0.1"}, 400, "کد", "code")
	w.wantError(t, req{method: "POST", path: "/v1/lead/add", body: body(""), ip: "10.0.0.1"}, 400, "کد", "code")
	a := w.must(t, req{method: "POST", path: "/v1/lead/add", body: body(code), ip: "10.0.0.1", lang: "en"})
	if !strings.Contains(a.Body, "sent to 3 professionals") {
		t.Fatalf("add: %s", a.Body)
	}
	lead := decodePayload[visitorLeadView](t, a)
	// The code is used up.
	w.wantError(t, req{method: "POST", path: "/v1/lead/add", body: body(code), ip: "10.0.0.1"}, 400, "کد", "code")
	// Each asked profile counts one quote request in its statistics (the refused tries none).
	for i, p := range w.plumbers {
		got := decodePayload[statsAnswer](t, w.must(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d/stats", p.ID), token: w.tokens[i]}))
		if got.Totals["quote"] != 1 {
			t.Fatalf("plumber %d: quote requests %d, want 1 (%v)", i, got.Totals["quote"], got.Totals)
		}
	}

	for i := range w.plumbers {
		n := w.bell(t, w.tokens[i])
		if n.Unread != 1 || n.Notifications[0].Kind != "new_lead" || n.Notifications[0].EntityID != lead.ID {
			t.Fatalf("plumber %d bell: %+v", i, n)
		}
		if sms := w.SMS.templated(w.phones[i]); len(sms) != 1 || !strings.HasPrefix(sms[0], "new_lead ") {
			t.Fatalf("plumber %d sms: %q", i, sms)
		}
		in := w.inbox(t, w.tokens[i])
		if in.Count != 1 || in.Unread != 1 || in.Leads[0].ID != lead.ID || in.Leads[0].NumberPhone != "" || strings.Contains(fmt.Sprint(in), visitor) {
			t.Fatalf("plumber %d inbox before answering shows the number or misses the lead: %+v", i, in)
		}
	}
	// Another owner never sees it: not in the inbox, 404 on every route.
	if in := w.inbox(t, w.other); in.Count != 0 {
		t.Fatalf("another owner's inbox: %+v", in)
	}
	w.wantError(t, req{method: "PUT", path: fmt.Sprintf("/v1/lead/%d/answer", lead.ID), token: w.other, body: `{"price":1,"message":"من"}`}, 404, "یافت نشد", "not found")
	w.wantError(t, req{method: "PUT", path: fmt.Sprintf("/v1/lead/%d/status", lead.ID), token: w.other, body: `{"status":"seen"}`}, 404, "یافت نشد", "not found")
	w.wantError(t, req{method: "POST", path: "/v1/report/add", token: w.other, body: fmt.Sprintf(`{"entity":"lead","id":%d,"reason":"spam"}`, lead.ID)}, 404, "یافت نشد", "not found")

	// The visitor signs up with the number later: the request is theirs.
	vtok, _ := w.user(t, visitor, "مهمان", store.RoleUser)
	path := func(what string) string { return fmt.Sprintf("/v1/lead/%d/%s", lead.ID, what) }
	w.must(t, req{method: "PUT", path: path("status"), token: w.tokens[0], body: `{"status":"seen"}`})
	if in := w.inbox(t, w.tokens[0]); in.Unread != 0 || in.Leads[0].Status != "seen" || in.Leads[0].NumberPhone != "" {
		t.Fatalf("seen: %+v", in)
	}
	a = w.must(t, req{method: "PUT", path: path("answer"), token: w.tokens[0], body: `{"price":1500000,"message":"فردا ساعت ۱۰ می‌آیم"}`})
	if v := decodePayload[ownerLeadView](t, a); v.NumberPhone != visitor || v.Status != "answered" {
		t.Fatalf("after answering the owner sees the number: %+v", v)
	}
	w.must(t, req{method: "PUT", path: path("answer"), token: w.tokens[1], body: `{"price":1200000,"message":"امروز عصر"}`})
	w.must(t, req{method: "PUT", path: path("status"), token: w.tokens[2], body: `{"status":"declined"}`})
	if in := w.inbox(t, w.tokens[2]); in.Leads[0].NumberPhone != "" {
		t.Fatalf("declining shows the number: %+v", in)
	}
	if n := w.bell(t, vtok); n.Unread != 2 || n.Notifications[0].Kind != "lead_answer" {
		t.Fatalf("visitor's bell: %+v", n)
	}

	mine := decodePayload[struct {
		Leads []visitorLeadView `json:"leads"`
		Count int               `json:"count"`
	}](t, w.must(t, req{method: "POST", path: "/v1/lead/getMine", token: vtok, body: `{}`}))
	if mine.Count != 1 || len(mine.Leads[0].Answers) != 3 {
		t.Fatalf("getMine: %+v", mine)
	}
	answered := 0
	for _, an := range mine.Leads[0].Answers {
		switch an.UserTechnicalID {
		case w.plumbers[0].ID, w.plumbers[1].ID:
			answered++
			if an.Status != "answered" || an.Price == nil || an.Phone == "" {
				t.Errorf("answer %+v: want the price and a number to call", an)
			}
		case w.plumbers[2].ID:
			if an.Status != "declined" || an.Phone != "" || an.Price != nil {
				t.Errorf("declined %+v", an)
			}
		}
		if an.UserTechnicalID == w.plumbers[1].ID && (an.Distance == nil || *an.Distance < 1000 || *an.Distance > 1200) {
			t.Errorf("distance of plumber 1: %v", an.Distance)
		}
	}
	if answered != 2 {
		t.Fatalf("answers: %+v", mine.Leads[0].Answers)
	}

	// Status moves and refusals, both languages.
	w.wantError(t, req{method: "PUT", path: path("status"), token: w.tokens[2], body: `{"status":"answered"}`}, 409, "قیمت و پیام", "price and message")
	w.wantError(t, req{method: "PUT", path: path("status"), token: w.tokens[1], body: `{"status":"lost"}`}, 400, "وضعیت", "status")
	w.wantError(t, req{method: "PUT", path: path("answer"), token: w.tokens[1], body: `{"price":-1,"message":""}`}, 400, "قیمت", "price")
	w.wantError(t, req{method: "PUT", path: path("answer"), token: w.tokens[2], body: `{"price":1,"message":"باشه"}`}, 409, "مجاز نیست", "not allowed")
	w.wantError(t, req{method: "PUT", path: path("answer"), body: `{"price":1,"message":"باشه"}`}, 401, "وارد", "sign in")
	w.wantError(t, req{method: "POST", path: "/v1/lead/getMine", body: `{}`}, 401, "وارد", "sign in")
	w.wantError(t, req{method: "POST", path: "/v1/lead/getForProfile", token: w.owner, body: `{"take":1000}`}, 400, "", "")
	w.must(t, req{method: "PUT", path: path("status"), token: w.tokens[1], body: `{"status":"done"}`})

	// A professional it was sent to reports it; the admins' queue shows it.
	w.must(t, req{method: "POST", path: "/v1/report/add", token: w.tokens[0], body: fmt.Sprintf(`{"entity":"lead","id":%d,"reason":"spam"}`, lead.ID)})
	w.wantError(t, req{method: "POST", path: "/v1/report/add", body: fmt.Sprintf(`{"entity":"lead","id":%d,"reason":"spam"}`, lead.ID)}, 404, "یافت نشد", "not found")
	q := w.must(t, req{method: "GET", path: "/v1/admin/report", token: w.admin})
	if !strings.Contains(q.Body, `"entity":"lead"`) || !strings.Contains(q.Body, "شیر آشپزخانه") {
		t.Fatalf("queue: %s", q.Body)
	}
	w.must(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/report/lead/%d/status", lead.ID), token: w.admin, body: `{"status":"Actioned"}`})
	if in := w.inbox(t, w.tokens[0]); in.Leads[0].Status != "declined" {
		t.Fatalf("actioned lead: %+v", in)
	}
}

// TestLeadRules: what a request may ask, in both languages.
func TestLeadRules(t *testing.T) {
	w := newLeadWorld(t)
	vtok, _ := w.user(t, "09130000002", "مهمان", store.RoleUser)
	add := func(extra string) req {
		return req{method: "POST", path: "/v1/lead/add", token: vtok, body: `{"city_id":1,"what":"تعمیر"` + extra + `}`}
	}
	for _, tt := range []struct {
		name   string
		q      req
		status int
		fa, en string
	}{
		{"ErrNoTarget", add(``), 400, "متخصص", "rofessionals"},
		{"ErrSix", add(`,"category_id":101,"user_technical_ids":[1,2,3,4,5,6]`), 400, "متخصص", "rofessionals"},
		{"ErrManyNoCategory", add(fmt.Sprintf(`,"user_technical_ids":%s`, w.ids())), 400, "دسته", "category"},
		{"ErrOtherCategory", add(fmt.Sprintf(`,"category_id":201,"user_technical_ids":%s`, w.ids())), 400, "دسته‌بندی درخواست", "category of the request"},
		{"ErrNoWhat", req{method: "POST", path: "/v1/lead/add", token: vtok, body: fmt.Sprintf(`{"city_id":1,"user_technical_id":%d}`, w.profile.ID)}, 400, "شرح کار", "what you need"},
		{"ErrHidden", add(fmt.Sprintf(`,"user_technical_id":%d`, w.pending.ID)), 404, "یافت نشد", "not found"},
		{"ErrOwn", req{method: "POST", path: "/v1/lead/add", token: w.owner, body: fmt.Sprintf(`{"city_id":1,"what":"x","user_technical_id":%d}`, w.profile.ID)}, 400, "پروفایل خودتان", "your own profile"},
		{"ErrPhotos", add(fmt.Sprintf(`,"user_technical_id":%d,"photos":["/uploads/ab/x.jpg"]`, w.profile.ID)), 400, "عکس", "photos"},
		{"ErrSignedOutNoCode", req{method: "POST", path: "/v1/lead/add", body: fmt.Sprintf(`{"city_id":1,"what":"x","user_technical_id":%d,"numberPhone":"09130000009"}`, w.profile.ID)}, 400, "کد", "code"},
		{"ErrBadCity", add(fmt.Sprintf(`,"city_id":999999,"user_technical_id":%d`, w.profile.ID)), 400, "شهر", "city"},
	} {
		t.Run(tt.name, func(t *testing.T) { w.wantError(t, tt.q, tt.status, tt.fa, tt.en) })
	}
	// Refused requests did not use up the allowance: five good ones go through, the sixth waits.
	one := fmt.Sprintf(`,"user_technical_id":%d`, w.profile.ID)
	for i := 0; i < 5; i++ {
		w.must(t, add(one))
	}
	w.wantError(t, add(one), 429, "ثانیه", "seconds")
	w.Clock.advance(61 * 60 * 1e9)
	w.must(t, add(one))
}

// TestLeadOwnerDailyLimit: one professional gets at most 20 requests a day, however many
// visitors and addresses send them.
func TestLeadOwnerDailyLimit(t *testing.T) {
	w := newLeadWorld(t)
	one := fmt.Sprintf(`{"city_id":1,"what":"تعمیر","user_technical_id":%d}`, w.profile.ID)
	for i := 0; i < 21; i++ {
		tok, _ := w.user(t, fmt.Sprintf("0914000%04d", i), "مهمان", store.RoleUser)
		a := w.send(t, req{method: "POST", path: "/v1/lead/add", token: tok, body: one, ip: fmt.Sprintf("10.1.%d.1", i)})
		if i < 20 && a.Status != 200 || i == 20 && a.Status != 429 {
			t.Fatalf("request %d: %d %s", i, a.Status, a.Body)
		}
	}
	if sms := w.SMS.templated("09120000001"); len(sms) != 3 {
		t.Fatalf("the owner's SMS stop at the daily cap (3 in tests): %d", len(sms))
	}
}
