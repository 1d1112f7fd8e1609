package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"kardan/store"
)

// profileBody is a correct plumber's profile in Tehran as the web app sends it.
const profileBody = `{
	"profile_name": "لوله‌کشی علی", "key_word": "ignored by the server", "work_history_years": 12,
	"descriotion": "لوله‌کشی آب و گاز", "city_id": 1, "province_id": 1, "range_worker": 1, "category_list": [101],
	"location": {"lat": 35.70, "long": 51.40}, "area_working": ["منطقه ۱"], "address": "خیابان ولیعصر",
	"services": [{"title": "باز کردن لوله", "price": 350000, "description": ""}, {"title": "مشاوره", "price": 0, "description": ""}],
	"hours_of_work": {"saturday": {"boarding": false, "closed": false, "time": [{"open": 28800, "close": 72000}]}, "friday": {"boarding": false, "closed": true, "time": []}},
	"social_network": [{"type": "Telegram", "link": "@ali_plumber"}, {"type": "mobile", "link": "۰۹۱۲۳۴۵۶۷۸۹"}]
}`

type profileAnswer struct {
	ID            int64     `json:"id"`
	Slug          string    `json:"slug"`
	AccountStatus string    `json:"account_status"`
	KeyWord       string    `json:"key_word"`
	Location      []float64 `json:"location"`
	OpenStatus    string    `json:"open_status"`
	Distance      *int64    `json:"distance"`
	UserID        struct {
		UserID      int64  `json:"userId"`
		NumberPhone string `json:"numberPhone"`
	} `json:"user_id"`
	City struct {
		Slag string `json:"slag"`
	} `json:"city"`
	RangeWorker struct {
		Slag string `json:"slag"`
	} `json:"range_worker"`
	CategoryList []struct {
		Slag string `json:"slag"`
	} `json:"category_list"`
}

type searchAnswer struct {
	Profiles []profileAnswer `json:"profiles"`
	Count    int             `json:"count"`
}

// profileWorld is an account server with an owner, another user and an admin signed in.
type profileWorld struct {
	*accountServer
	owner, other, admin string
}

func newProfileWorld(t *testing.T) *profileWorld {
	t.Helper()
	as := newAccountServer(t)
	w := &profileWorld{accountServer: as}
	w.owner = as.mustSignUp(t, "09120000001", "password-1").Token
	w.other = as.mustSignUp(t, "09120000002", "password-2").Token
	as.mustSignUp(t, "09120000003", "password-3")
	if _, err := as.Store.SetUserRole(t.Context(), "09120000003", store.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	w.admin = decodePayload[loginAnswer](t, as.login(t, "09120000003", "password-3", "")).Token
	return w
}

func (w *profileWorld) create(t *testing.T, token, body string) profileAnswer {
	t.Helper()
	a := w.send(t, req{method: "POST", path: "/v1/user-technical/createProfile", body: body, token: token})
	if a.Status != 200 {
		t.Fatalf("create: %d %s", a.Status, a.Body)
	}
	return decodePayload[profileAnswer](t, a)
}

func (w *profileWorld) search(t *testing.T, body string) searchAnswer {
	t.Helper()
	a := w.send(t, req{method: "POST", path: "/v1/user-technical/searchUser", body: body})
	if a.Status != 200 {
		t.Fatalf("search %s: %d %s", body, a.Status, a.Body)
	}
	return decodePayload[searchAnswer](t, a)
}

func TestProfileJourney(t *testing.T) {
	w := newProfileWorld(t)
	p := w.create(t, w.owner, profileBody)
	if p.AccountStatus != "Pending" || !strings.Contains(p.KeyWord, "Tehran") || strings.Contains(p.KeyWord, "ignored") {
		t.Fatalf("created: %+v", p)
	}
	if p.UserID.NumberPhone != "09120000001" {
		t.Errorf("the owner does not see their number: %+v", p.UserID)
	}
	if p.Location[0] != 51.40 || p.Location[1] != 35.70 {
		t.Errorf("location must read [long, lat]: %v", p.Location)
	}
	byText := `{"search_txt": "لوله كش"}`
	if got := w.search(t, byText); got.Count != 0 {
		t.Fatalf("a pending profile is public: %+v", got)
	}
	if a := w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/%d", p.ID)}); a.Status != 404 {
		t.Fatalf("pending profile by id for a visitor: %d", a.Status)
	}
	// The owner and an admin still see it.
	for _, tok := range []string{w.owner, w.admin} {
		if a := w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/getAuthProfileById/%d", p.ID), token: tok}); a.Status != 200 {
			t.Fatalf("owner/admin view: %d %s", a.Status, a.Body)
		}
	}
	if a := w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/getAuthProfileById/%d", p.ID), token: w.other}); a.Status != 404 {
		t.Fatalf("other's auth view (answered like a missing id): %d", a.Status)
	}

	// An admin accepts it.
	a := w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin,
		body: `{"status": "Accepted", "description": "ok"}`})
	if a.Status != 200 {
		t.Fatalf("accept: %d %s", a.Status, a.Body)
	}
	for _, body := range []string{
		byText, `{"search_txt": "لولهکش"}`, `{"search_txt": "علي"}`, `{"search_txt": "plumber"}`,
		`{"city_slag": "tehran"}`, `{"category_slag": "plumber", "city_slag": "iran"}`, `{"category_slag": "building-services"}`,
		`{"lat": 35.705, "long": 51.405, "radius": 1000}`, `{"lat": 35.70, "long": 51.40}`, `{"province_id": 1, "min_score": 0}`,
	} {
		got := w.search(t, body)
		if got.Count != 1 || len(got.Profiles) != 1 || got.Profiles[0].ID != p.ID {
			t.Errorf("search %s: got %+v", body, got)
		}
	}
	got := w.search(t, `{"lat": 35.705, "long": 51.405, "radius": 1000}`)
	if d := got.Profiles[0].Distance; d == nil || *d < 600 || *d > 800 {
		t.Errorf("distance: got %v, want about 700 m", d)
	}
	if got.Profiles[0].UserID.NumberPhone != "" {
		t.Errorf("the owner's number leaked to the public: %+v", got.Profiles[0].UserID)
	}
	if got.Profiles[0].OpenStatus == "" {
		t.Error("no open_status")
	}
	for _, body := range []string{`{"lat": 38.08, "long": 46.29, "radius": 5000}`, `{"city_slag": "tabriz"}`, `{"category_slag": "dentist"}`} {
		if got := w.search(t, body); got.Count != 0 {
			t.Errorf("search %s: got %+v, want nothing", body, got)
		}
	}
	if a := w.send(t, req{method: "POST", path: "/v1/user-technical/searchUserSlag", body: fmt.Sprintf(`{"slug": %q}`, p.Slug)}); a.Status != 200 {
		t.Fatalf("by slug: %d %s", a.Status, a.Body)
	}
	// Login lists the owner's profiles.
	la := decodePayload[loginAnswer](t, w.login(t, "09120000001", "password-1", ""))
	if len(la.UserTechnical) != 1 {
		t.Errorf("userTechnical: got %v", la.UserTechnical)
	}

	// Delete: gone from search; restore: back.
	if a := w.send(t, req{method: "DELETE", path: fmt.Sprintf("/v1/user-technical/%d", p.ID), token: w.other}); a.Status != 403 {
		t.Fatalf("other deletes: %d", a.Status)
	}
	if a := w.send(t, req{method: "DELETE", path: fmt.Sprintf("/v1/user-technical/%d", p.ID), token: w.owner}); a.Status != 200 {
		t.Fatalf("delete: %d %s", a.Status, a.Body)
	}
	if got := w.search(t, byText); got.Count != 0 {
		t.Fatalf("deleted profile still found: %+v", got)
	}
	a = w.send(t, req{method: "GET", path: "/v1/user-technical/getAllWithSoftDeleted", token: w.admin})
	if a.Status != 200 || !strings.Contains(a.Body, `"account_status":"Deleted"`) {
		t.Fatalf("admin list: %d %s", a.Status, a.Body)
	}
	// The owner's list keeps the deleted profile, so the Desk can offer Restore; the public's not.
	a = w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/getAll/%d", p.UserID.UserID), token: w.owner})
	if !strings.Contains(a.Body, `"account_status":"Deleted"`) {
		t.Fatalf("owner's getAll: %s", a.Body)
	}
	if a := w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/getAll/%d", p.UserID.UserID)}); !strings.Contains(a.Body, `"count":0`) {
		t.Fatalf("public getAll: %s", a.Body)
	}
	// The same field is locked for 30 days; the answer names the field for the form.
	a = w.send(t, req{method: "POST", path: "/v1/user-technical/createProfile", body: profileBody, token: w.owner, lang: "en"})
	checkError(t, a, 409, "cannot create a new one in this field")
	if !strings.Contains(string(a.Payload), `"range_worker":`) {
		t.Errorf("the lock names no field: %s", a.Payload)
	}
	for _, path := range []string{"/v1/user-technical/restore%d", "/v1/user-technical/restore/%d"} {
		if a := w.send(t, req{method: "PUT", path: fmt.Sprintf(path, p.ID), token: w.owner}); a.Status != 200 {
			t.Fatalf("restore %s: %d %s", path, a.Status, a.Body)
		}
	}
	if got := w.search(t, byText); got.Count != 1 {
		t.Fatalf("restored profile not found: %+v", got)
	}
	// One profile per category.
	a = w.send(t, req{method: "POST", path: "/v1/user-technical/createProfile", body: profileBody, token: w.owner, lang: "en"})
	checkError(t, a, 409, "only one profile per category")
	if !strings.Contains(string(a.Payload), `"category_list":`) {
		t.Errorf("the conflict names no field: %s", a.Payload)
	}
	// Other profiles of the same user.
	a = w.send(t, req{method: "GET", path: fmt.Sprintf("/v1/user-technical/getAll/%d", p.UserID.UserID)})
	if a.Status != 200 || !strings.Contains(a.Body, `"count":1`) {
		t.Fatalf("getAll: %d %s", a.Status, a.Body)
	}
}

func TestProfileErrors(t *testing.T) {
	w := newProfileWorld(t)
	p := w.create(t, w.owner, profileBody)
	with := func(change func(m map[string]any)) string {
		var m map[string]any
		json.Unmarshal([]byte(profileBody), &m)
		change(m)
		b, _ := json.Marshal(m)
		return string(b)
	}
	for _, tc := range []struct {
		name   string
		method string
		path   string
		body   string
		token  string
		status int
		fa, en string
	}{
		{"ErrCreateSignedOut", "POST", "/v1/user-technical/createProfile", profileBody, "", 401, "ابتدا وارد شوید", "sign in first"},
		{"ErrCreateBadToken", "POST", "/v1/user-technical/createProfile", profileBody, "not-a-real-token-123", 401, "", ""},
		{"ErrNameMissing", "POST", "/v1/user-technical/createProfile", with(func(m map[string]any) { m["profile_name"] = "" }), "owner", 400,
			"نام کسب‌وکار را وارد کنید", "Enter business name"},
		{"ErrCityNotInProvince", "POST", "/v1/user-technical/createProfile", with(func(m map[string]any) { m["city_id"] = 129 }), "owner", 400,
			"شهر انتخاب‌شده در این استان نیست", "The chosen city is not in this province"},
		{"ErrPriceNotInteger", "POST", "/v1/user-technical/createProfile", with(func(m map[string]any) {
			m["services"] = []any{map[string]any{"title": "x", "price": 10.5}}
		}), "owner", 400, "را درست وارد کنید", "Enter correct"},
		{"ErrHoursIrregular", "POST", "/v1/user-technical/createProfile", with(func(m map[string]any) {
			m["hours_of_work"] = map[string]any{"monday": map[string]any{"time": []any{map[string]any{"open": 100, "close": 200}}}}
		}), "other", 400, "دقیقهٔ کامل", "The times of Monday must be whole minutes"},
		{"ErrSocialLink", "POST", "/v1/user-technical/createProfile", with(func(m map[string]any) {
			m["social_network"] = []any{map[string]any{"type": "Email", "link": "nope"}}
		}), "other", 400, "درست نیست", "The Email address or number is not correct"},
		{"ErrOutsideIran", "POST", "/v1/user-technical/createProfile", with(func(m map[string]any) {
			m["location"] = map[string]any{"lat": 51.5, "long": -0.1}
		}), "other", 400, "درون ایران", "inside Iran"},
		{"ErrMalformed", "POST", "/v1/user-technical/createProfile", `{"profile_name": `, "owner", 400, "JSON", "malformed JSON"},
		{"ErrUpdateOthers", "PUT", fmt.Sprintf("/v1/user-technical/update/%d", p.ID), profileBody, "other", 403, "اجازه", "not allowed"},
		{"ErrUpdateMissing", "PUT", "/v1/user-technical/update/999999", profileBody, "owner", 404, "یافت نشد", "Item not found"},
		{"ErrGetMissing", "GET", "/v1/user-technical/999999", "", "", 404, "یافت نشد", "Item not found"},
		{"ErrGetBadID", "GET", "/v1/user-technical/abc", "", "", 404, "یافت نشد", "Item not found"},
		{"ErrAdminListByUser", "GET", "/v1/user-technical/getAllWithSoftDeleted", "", "owner", 403, "اجازه", "not allowed"},
		{"ErrAdminStatusByUser", "PUT", fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), `{"status":"Accepted"}`, "owner", 403, "اجازه", "not allowed"},
		{"ErrBadTransition", "PUT", fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), `{"status":"Blocked"}`, "admin", 409,
			"مجاز نیست", "is not allowed"},
		{"ErrUnknownStatus", "PUT", fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), `{"status":"Famous"}`, "admin", 400,
			"وضعیت را درست وارد کنید", "Enter correct status"},
		{"ErrSearchUnknownCity", "POST", "/v1/user-technical/searchUser", `{"city_slag": "atlantis"}`, "", 400,
			"شهر را درست وارد کنید", "Enter correct city"},
		{"ErrSearchUnknownCategory", "POST", "/v1/user-technical/searchUser", `{"category_slag": "wizard"}`, "", 400,
			"دسته‌بندی را درست وارد کنید", "Enter correct category"},
		{"ErrSearchTakeTooBig", "POST", "/v1/user-technical/searchUser", `{"take": 1000}`, "", 400, "اندازهٔ صفحه", "Page size must be between 1 and 100"},
		{"ErrSearchNegativeSkip", "POST", "/v1/user-technical/searchUser", `{"skip": -5}`, "", 400, "شروع صفحه", "Skip must be between"},
		{"ErrSearchLatOnly", "POST", "/v1/user-technical/searchUser", `{"lat": 35.7}`, "", 400, "طول جغرافیایی را وارد کنید", "Enter longitude"},
		{"ErrSearchLongOnly", "POST", "/v1/user-technical/searchUser", `{"lat": 0, "long": 51.4, "radius": 5000}`, "", 400, "عرض جغرافیایی", "Enter latitude"},
		{"ErrSearchHugeRadius", "POST", "/v1/user-technical/searchUser", `{"lat": 35.7, "long": 51.4, "radius": 1e9}`, "", 400, "شعاع", "Radius must be between"},
		{"ErrSearchBadOrder", "POST", "/v1/user-technical/searchUser", `{"order": "random"}`, "", 400, "ترتیب", "Enter correct order"},
		{"ErrSearchMinScore", "POST", "/v1/user-technical/searchUser", `{"min_score": 9}`, "", 400, "حداقل امتیاز", "Minimum score must be between 0 and 5"},
		{"ErrSearchLatString", "POST", "/v1/user-technical/searchUser", `{"lat": "north", "long": 51}`, "", 400, "", "Enter correct lat"},
		{"ErrSearchLongText", "POST", "/v1/user-technical/searchUser", `{"search_txt": "` + strings.Repeat("ا", 300) + `"}`, "", 400, "عبارت جستجو", "Search text can be at most 200"},
		{"ErrSlugMissing", "POST", "/v1/user-technical/searchUserSlag", `{}`, "", 400, "نشانی صفحه", "Enter page address"},
		{"ErrSlugUnknown", "POST", "/v1/user-technical/searchUserSlag", `{"slug": "no-such-profile"}`, "", 404, "یافت نشد", "Item not found"},
		{"ErrSlugPending", "POST", "/v1/user-technical/searchUserSlag", fmt.Sprintf(`{"slug": %q}`, p.Slug), "", 404, "یافت نشد", "Item not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			token := map[string]string{"owner": w.owner, "other": w.other, "admin": w.admin, "": ""}[tc.token]
			if _, named := map[string]bool{"owner": true, "other": true, "admin": true, "": true}[tc.token]; !named {
				token = tc.token
			}
			for _, lang := range []string{"fa", "en"} {
				want := tc.fa
				if lang == "en" {
					want = tc.en
				}
				a := w.send(t, req{method: tc.method, path: tc.path, body: tc.body, token: token, lang: lang})
				checkError(t, a, tc.status, want)
			}
		})
	}
}

func TestSearchOrdersAndPaging(t *testing.T) {
	w := newProfileWorld(t)
	p := w.create(t, w.owner, profileBody)
	w.send(t, req{method: "PUT", path: fmt.Sprintf("/v1/admin/user-technical/%d/status", p.ID), token: w.admin, body: `{"status": "Accepted"}`})
	for _, order := range []string{"relevance", "best", "reviews", "nearest", "newest", ""} {
		got := w.search(t, fmt.Sprintf(`{"order": %q, "lat": 35.7, "long": 51.4, "search_txt": "لوله"}`, order))
		if got.Count != 1 {
			t.Errorf("order %q: got %+v", order, got)
		}
	}
	if got := w.search(t, `{"skip": 20, "take": 20}`); got.Count != 1 || len(got.Profiles) != 0 {
		t.Errorf("second page: got %+v", got)
	}
}
