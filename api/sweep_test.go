package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"image"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/gorilla/mux"

	"kardan/auth"
	"kardan/media"
	"kardan/store"
	"kardan/store/storetest"
)

// The hostile-input sweep sends at least minSweepCases hostile requests to every /v1 route of
// the route table (read from mux, so a new route without cases fails the test) and expects the
// contract of DESIGN.md: never a 5xx, always the envelope, a 4xx always says why in the
// caller's language, and nobody changes data they do not own.

const minSweepCases = 50

// sweepRecorder is the SMS sender of the sweep: it keeps the codes so sign-up can be driven.
type sweepRecorder struct {
	mu    sync.Mutex
	codes map[string]string
}

func (r *sweepRecorder) Send(ctx context.Context, phone, code string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.codes[phone] = code
	return nil
}

// sweepWorld is a real server over real SQLite, a real index and an uploads directory, with an
// owner who has a profile, a comment, a blog and a contact message, a neighbour, an attacker and
// an admin.
type sweepWorld struct {
	srv *Server
	st  *store.Store
	ids map[string]string // owner's resources: profile, user, comment, reply (a comment on the owner's profile), blog, slug, critic
	tok map[string]string // tokens: owner, attacker, admin
	usr map[string]*store.User
	img []byte // a valid JPEG the owner uploaded
}

func newSweepWorld(t *testing.T) *sweepWorld {
	t.Helper()
	ctx := context.Background()
	st, ix := storetest.Indexed(t)
	dir := storetest.Dir(st)
	uploads, err := media.NewLocalDir(filepath.Join(dir, "uploads"))
	if err != nil {
		t.Fatal(err)
	}
	proxies, _ := ParseCIDRs([]string{"192.0.2.1"})
	srv, err := New(Config{BaseURL: "https://kardan.example", Moderation: "pre", Search: ix, Uploads: uploads,
		SMS: &sweepRecorder{codes: map[string]string{}}, TrustedProxies: proxies}, st)
	if err != nil {
		t.Fatal(err)
	}
	w := &sweepWorld{srv: srv, st: st, ids: map[string]string{}, tok: map[string]string{}, usr: map[string]*store.User{}}
	hash, err := auth.NewHasher(auth.DefaultParams, 1).Hash(ctx, "sweep-password-1")
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"owner", "neighbour", "attacker", "admin"} {
		u := &store.User{NumberPhone: fmt.Sprintf("0912000000%d", i+1), Name: name, PasswordHash: hash}
		if name == "admin" {
			u.Role = store.RoleAdmin
		}
		if err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		w.usr[name] = u
		w.tok[name] = w.mint(t, u)
	}
	owner, neighbour := w.usr["owner"], w.usr["neighbour"]

	// The owner uploads an image through the API so it is theirs to use.
	var buf bytes.Buffer
	jpeg.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 64, 48)), nil)
	w.img = buf.Bytes()
	body, ct := multipartBody("userTechnical", "photo.jpg", w.img)
	rec := w.send(t, sweepCase{method: "POST", path: "/v1/upload-file", raw: body, ctype: ct, token: w.tok["owner"]})
	var up struct {
		Payload struct {
			Address string `json:"address"`
		} `json:"payload"`
	}
	json.Unmarshal(rec.Body.Bytes(), &up)
	if up.Payload.Address == "" {
		t.Fatalf("upload: %d %s", rec.Code, rec.Body)
	}

	mk := func(u *store.User, name string, cat int64) *store.Profile {
		var in store.ProfileInput
		if err := json.Unmarshal([]byte(sweepProfileBody), &in); err != nil {
			t.Fatal(err)
		}
		in.ProfileName, in.CategoryList = name, []int64{cat}
		if u == owner {
			in.ProfileImage = up.Payload.Address
		}
		p, err := st.CreateProfile(ctx, u.ID, &in, false)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p1 := mk(owner, "لوله‌کشی مالک", 101)
	p2 := mk(neighbour, "برق همسایه", 102)
	c1, err := st.AddComment(ctx, owner, &store.CommentInput{ProfileID: p2.ID, Description: "نظر مالک", Score: 4})
	if err != nil {
		t.Fatal(err)
	}
	c2, err := st.AddComment(ctx, neighbour, &store.CommentInput{ProfileID: p1.ID, Description: "نظر همسایه", Score: 5})
	if err != nil {
		t.Fatal(err)
	}
	b, err := st.CreateBlog(ctx, owner, &store.BlogInput{Title: "یادداشت مالک", Content: "<p>متن</p>", Summary: "خلاصه",
		CategoryList: store.IDList{101}}, store.BlogOptions{Moderated: false, Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	cr, err := st.AddCritic(ctx, &owner.ID, &store.CriticInput{Name: "مالک", Email: "owner@example.com", Subject: "سلام", Message: "پیام مالک"}, "192.0.2.9")
	if err != nil {
		t.Fatal(err)
	}
	// A neighbour asks the owner's profile for a price: the owner's lead.
	lead, err := st.AddLead(ctx, &store.LeadInput{ProfileID: p1.ID, CityID: p1.CityID, What: "درخواست قیمت"}, neighbour, "", store.LeadProof{}, store.CodePolicy{}, "192.0.2.9")
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	w.ids = map[string]string{
		"lead":    fmt.Sprint(lead.ID),
		"profile": fmt.Sprint(p1.ID), "user": fmt.Sprint(owner.ID), "comment": fmt.Sprint(c1.ID), "reply": fmt.Sprint(c2.ID),
		"blog": fmt.Sprint(b.ID), "slug": p1.Slug, "blogslug": b.Slug, "critic": fmt.Sprint(cr.ID), "neighbourProfile": fmt.Sprint(p2.ID),
		"image": up.Payload.Address,
	}
	return w
}

// ownsID reports whether a path value names one of the owner's resources.
func (w *sweepWorld) ownsID(v string) bool {
	v = strings.TrimLeft(v, "0")
	for _, k := range []string{"profile", "blog", "comment", "critic", "user"} {
		if v == w.ids[k] {
			return true
		}
	}
	return false
}

// mint opens a new session for u and answers its token (sign-in without hashing a password).
func (w *sweepWorld) mint(t *testing.T, u *store.User) string {
	t.Helper()
	tok, hash, err := auth.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.st.CreateSession(context.Background(), u.ID, store.NewSession{TokenHash: hash, TTL: time.Hour}); err != nil {
		t.Fatal(err)
	}
	return tok
}

const sweepProfileBody = `{"profile_name":"لوله‌کشی","work_history_years":5,"descriotion":"کار تمیز","city_id":1,"province_id":1,
	"range_worker":1,"category_list":[101],"location":{"lat":35.7,"long":51.4},"area_working":["مرکز"],"address":"تهران",
	"services":[{"title":"نصب","price":1000,"description":""}],"hours_of_work":{"saturday":{"boarding":false,"closed":false,"time":[{"open":28800,"close":61200}]}},
	"social_network":[{"type":"Telegram","link":"@kardan"}],"option":[],"active":true,"display":true}`

// sweepCase is one hostile request.
type sweepCase struct {
	name   string
	method string
	path   string
	raw    []byte // body
	ctype  string
	token  string
	lang   string
	header map[string]string
	// must4xx says the input can only be refused (malformed JSON, a wrong type, a foreign id...).
	must4xx bool
	// contentAddressed says an accepted upload must be stored under its hash, whatever its name.
	contentAddressed bool
}

func (w *sweepWorld) send(t *testing.T, c sweepCase) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(c.method, "http://kardan.example"+c.path, bytes.NewReader(c.raw))
	req.RemoteAddr = "203.0.113.50:4000"
	if c.ctype == "" {
		c.ctype = "application/json"
	}
	req.Header.Set("Content-Type", c.ctype)
	if c.lang != "" {
		req.Header.Set("Accept-Language", c.lang)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	w.srv.ServeHTTP(rec, req)
	return rec
}

// sweepRoute is one route of the table.
type sweepRoute struct {
	method, template string
}

func (r sweepRoute) String() string { return r.method + " " + r.template }

// routeSpec says how to reach a route: the valid value of each path variable (the owner's
// resource), a valid body whose fields are then spoiled one by one, and whose token the
// spoiled bodies carry (the owner for the owner's routes, the admin for moderation).
type routeSpec struct {
	vars  map[string]string
	body  string
	actor string // "owner", "admin", "attacker" or "" (anonymous)
	// ownerOnly routes refuse the attacker with the owner's ids: any 2xx from the attacker fails.
	ownerOnly bool
	// multipart marks the upload route, whose hostile inputs are crafted files.
	multipart bool
	// noBody marks a route that reads no body (logout): a malformed one cannot be refused.
	noBody bool
	// query holds the query parameters a GET route reads.
	query []string
}

// specs gives every /v1 route a way in. Keys are "METHOD template" as mux reports them.
func (w *sweepWorld) specs() map[string]routeSpec {
	id := func(kind string) map[string]string { return map[string]string{"id": w.ids[kind]} }
	blogBody := `{"title":"عنوان آزمایشی","content":"<p>متن آزمایشی</p>","summary":"خلاصه","image_url":"","tag":["آزمون"],"category_list":[101],"release_at":"2026-01-01","isDraft":false}`
	blogEdit := `{"id":` + w.ids["blog"] + `,"title":"عنوان ویرایش","content":"<p>متن</p>","summary":"خلاصه","tag":["آزمون"],"category_list":[101],"isDraft":false}`
	critic := `{"name":"نام","email":"a@example.com","number_phone":"09121234567","subject":"موضوع","message":"پیام آزمایشی"}`
	page := `{"skip":0,"take":20}`
	return map[string]routeSpec{
		"GET /v1/config":                                        {query: []string{"x"}},
		"GET /v1/locations/province/list":                       {query: []string{"x"}},
		"GET /v1/locations/cities/list/{provinceId}":            {vars: map[string]string{"provinceId": "1"}},
		"GET /v1/locations/nearest":                             {query: []string{"lat", "long"}},
		"GET /v1/work_category/getTreeById":                     {query: []string{"id"}},
		"GET /v1/work_category/getFavourite":                    {query: []string{"x"}},
		"POST /v1/user-technical/createProfile":                 {body: sweepProfileBody, actor: "attacker"},
		"PUT /v1/user-technical/update/{id:[0-9]+}":             {vars: id("profile"), body: sweepProfileBody, actor: "owner", ownerOnly: true},
		"GET /v1/user-technical/getAuthProfileById/{id:[0-9]+}": {vars: id("profile"), ownerOnly: true},
		"GET /v1/user-technical/getAll/{id:[0-9]+}":             {vars: id("user")},
		"GET /v1/user-technical/getAllWithSoftDeleted":          {query: []string{"skip", "take"}, ownerOnly: true},
		"PUT /v1/user-technical/restore{id:[0-9]+}":             {vars: id("profile"), ownerOnly: true},
		"PUT /v1/user-technical/restore/{id:[0-9]+}":            {vars: id("profile"), ownerOnly: true},
		"POST /v1/user-technical/searchUser":                    {body: `{"search_txt":"لوله","city_slag":"tehran","category_slag":"plumber","province_id":1,"lat":35.7,"long":51.4,"radius":5000,"min_score":1,"minLevel_score":1,"order":"best","open_now":true,"skip":0,"take":20}`},
		"POST /v1/user-technical/searchUserSlag":                {body: `{"slug":"` + w.ids["slug"] + `"}`},
		"GET /v1/search/suggest":                                {query: []string{"q", "city_slag"}},
		"PUT /v1/user-technical/{id:[0-9]+}/flags":              {vars: id("profile"), body: `{"active":true,"display":true}`, actor: "owner", ownerOnly: true},
		"GET /v1/user-technical/{id:[0-9]+}":                    {vars: id("profile")},
		"GET /v1/user-technical/{id:[0-9]+}/stats":              {vars: id("profile"), query: []string{"from", "to"}, ownerOnly: true},
		"GET /v1/admin/stats":                                   {query: []string{"from", "to"}, ownerOnly: true},
		"POST /v1/stats/event":                                  {body: `{"profile_id":` + w.ids["profile"] + `,"kind":"route","detail":"waze"}`},
		"DELETE /v1/user-technical/{id:[0-9]+}":                 {vars: id("profile"), ownerOnly: true},
		"GET /v1/admin/user-technical":                          {query: []string{"status", "skip", "take"}, ownerOnly: true},
		"PUT /v1/admin/user-technical/{id:[0-9]+}/status":       {vars: id("profile"), body: `{"status":"Blocked","description":"یادداشت"}`, actor: "admin", ownerOnly: true},
		"POST /v1/comment/add":                                  {body: `{"user_technical_id":` + w.ids["neighbourProfile"] + `,"description":"نظر آزمایشی","score":5,"category_list":[102]}`, actor: "attacker"},
		"PUT /v1/comment/edit":                                  {body: `{"id":` + w.ids["comment"] + `,"description":"نظر ویرایش","score":3,"category_list":[]}`, actor: "owner", ownerOnly: true},
		"POST /v1/comment/get":                                  {body: `{"user_technical_id":` + w.ids["profile"] + `,"category":0,"skip":0,"take":20}`},
		"POST /v1/comment/getCommentRegisterByMe":               {body: `{"user_technical_id":` + w.ids["neighbourProfile"] + `,"skip":0,"take":20}`, actor: "owner"},
		"POST /v1/comment/reply":                                {body: `{"id":` + w.ids["reply"] + `,"description":"ممنون از شما"}`, actor: "owner", ownerOnly: true},
		"GET /v1/admin/comment":                                 {query: []string{"status", "user_technical_id", "skip", "take"}, ownerOnly: true},
		"PUT /v1/admin/comment/{id:[0-9]+}/status":              {vars: id("comment"), body: `{"status":"Hidden","description":"یادداشت"}`, actor: "admin", ownerOnly: true},
		"POST /v1/blog/add":                                     {body: blogBody, actor: "owner"},
		"PUT /v1/blog/edit":                                     {body: blogEdit, actor: "owner", ownerOnly: true},
		"PUT /v1/blog/edit/{id:[0-9]+}":                         {vars: id("blog"), body: blogEdit, actor: "owner", ownerOnly: true},
		"GET /v1/blog/get/{key}":                                {vars: map[string]string{"key": w.ids["blogslug"]}},
		"GET /v1/blog/getAuth/{id:[0-9]+}":                      {vars: id("blog"), ownerOnly: true},
		"POST /v1/blog/getAuthAll":                              {body: page, actor: "owner"},
		"POST /v1/blog/search":                                  {body: `{"search_txt":"یادداشت","writer_id":` + w.ids["user"] + `,"category_id":101,"tag":"آزمون","skip":0,"take":20}`},
		"DELETE /v1/blog/delete/{id:[0-9]+}":                    {vars: id("blog"), ownerOnly: true},
		"GET /v1/admin/blog":                                    {query: []string{"status", "skip", "take"}, ownerOnly: true},
		"PUT /v1/admin/blog/{id:[0-9]+}/status":                 {vars: id("blog"), body: `{"status":"Blocked","description":"یادداشت"}`, actor: "admin", ownerOnly: true},
		"POST /v1/report/add":                                   {body: `{"entity":"profile","id":` + w.ids["profile"] + `,"reason":"other","description":"گزارش آزمایشی"}`},
		"GET /v1/admin/report":                                  {query: []string{"status", "skip", "take"}, ownerOnly: true},
		"PUT /v1/admin/report/{entity}/{id:[0-9]+}/status": {vars: map[string]string{"entity": "comment", "id": w.ids["comment"]},
			body: `{"status":"Dismissed","description":"یادداشت"}`, actor: "admin", ownerOnly: true},
		"POST /v1/critics-and-suggestions/add":                         {body: critic},
		"POST /v1/critics-and-suggestions/addWithAuth":                 {body: critic, actor: "attacker"},
		"GET /v1/critics-and-suggestions":                              {query: []string{"skip", "take", "read"}, ownerOnly: true},
		"PUT /v1/admin/critics/{id:[0-9]+}/read":                       {vars: id("critic"), body: `{"read":true}`, actor: "admin", ownerOnly: true},
		"POST /v1/send-sms/sendSmsForSignUp":                           {body: `{"numberPhone":"09351234567"}`},
		"POST /v1/send-sms/sendSmsForReset":                            {body: `{"numberPhone":"09351234568"}`},
		"POST /v1/send-sms/sendSmsForLogin":                            {body: `{"numberPhone":"09351234569"}`},
		"POST /v1/user/reset-password":                                 {body: `{"numberPhone":"09120000001","otpCode":"123456","password":"password-123"}`},
		"POST /v1/user/loginWithCode":                                  {body: `{"numberPhone":"09120000001","otpCode":"123456"}`},
		"POST /v1/user/create":                                         {body: `{"numberPhone":"09351234567","name":"نام","password":"password-123","profileImage":"","otpCode":"123456"}`},
		"POST /v1/user/login":                                          {body: `{"numberPhone":"09120000001","password":"wrong-password"}`},
		"POST /v1/user/logout":                                         {body: `{}`, actor: "attacker", noBody: true},
		"PUT /v1/user/edit":                                            {body: `{"id":` + w.ids["user"] + `,"name":"نام تازه","password":"","profileImage":""}`, actor: "attacker"},
		"GET /v1/user":                                                 {query: []string{"id"}},
		"POST /v1/upload-file":                                         {multipart: true, actor: "attacker"},
		"POST /v1/send-sms/sendSmsForLead":                             {body: `{"numberPhone":"09351234570"}`},
		"POST /v1/lead/verify":                                         {body: `{"numberPhone":"09351234571","otpCode":"123456"}`},
		"POST /v1/lead/upload":                                         {multipart: true},
		"POST /v1/lead/add":                                            {body: `{"user_technical_id":` + w.ids["neighbourProfile"] + `,"city_id":1,"what":"درخواست","when":"فردا","lat":35.7,"long":51.4,"photos":[]}`, actor: "owner"},
		"POST /v1/lead/getMine":                                        {body: page, actor: "attacker"},
		"POST /v1/lead/getForProfile":                                  {body: `{"user_technical_id":` + w.ids["profile"] + `,"skip":0,"take":20}`, actor: "owner"},
		"PUT /v1/lead/{id:[0-9]+}/answer":                              {vars: id("lead"), body: `{"price":100000,"message":"می‌آیم"}`, actor: "owner", ownerOnly: true},
		"PUT /v1/lead/{id:[0-9]+}/status":                              {vars: id("lead"), body: `{"status":"seen"}`, actor: "owner", ownerOnly: true},
		"GET /v1/notification/list":                                    {query: []string{"skip", "take"}, actor: "owner"},
		"PUT /v1/notification/read":                                    {body: `{"ids":[1,2]}`, actor: "owner"},
		"GET /v1/notification/sms":                                     {query: []string{"x"}, actor: "owner"},
		"PUT /v1/notification/sms":                                     {body: `{"kind":"new_lead","enabled":false}`, actor: "owner"},
		"GET /v1/user-technical/{id:[0-9]+}/verification":              {vars: id("profile"), ownerOnly: true},
		"POST /v1/user-technical/{id:[0-9]+}/verification/confirm":     {vars: id("profile"), body: `{"otpCode":"123456"}`, actor: "owner", ownerOnly: true},
		"GET /v1/admin/verification":                                   {query: []string{"x"}, ownerOnly: true},
		"POST /v1/admin/user-technical/{id:[0-9]+}/verification/start": {vars: id("profile"), body: `{"numberPhone":"09121234567"}`, actor: "admin", ownerOnly: true},
		"PUT /v1/admin/user-technical/{id:[0-9]+}/verification":        {vars: id("profile"), body: `{"verified":false,"description":"یادداشت"}`, actor: "admin", ownerOnly: true},
		"POST /v1/admin/user-technical/createListing":                  {body: sweepProfileBody, actor: "admin", ownerOnly: true},
		"POST /v1/send-sms/sendSmsForClaim":                            {body: `{"user_technical_id":` + w.ids["profile"] + `}`, actor: "attacker"},
		"POST /v1/claim/add":                                           {body: `{"user_technical_id":` + w.ids["profile"] + `,"otpCode":"123456","description":"مال من است"}`, actor: "attacker"},
		"GET /v1/claim/mine":                                           {query: []string{"x"}, actor: "attacker"},
		"GET /v1/admin/claim":                                          {query: []string{"status"}, ownerOnly: true},
		"PUT /v1/admin/claim/{id:[0-9]+}/status":                       {vars: map[string]string{"id": "1"}, body: `{"status":"Rejected","description":"یادداشت"}`, actor: "admin", ownerOnly: true},
		// Anyone signed in keeps a list of their own: saving another's public profile is the point.
		"GET /v1/saved":                {query: []string{"x"}, actor: "attacker"},
		"POST /v1/saved":               {body: `{"ids":[` + w.ids["profile"] + `]}`, actor: "attacker"},
		"PUT /v1/saved/{profileId}":    {vars: map[string]string{"profileId": w.ids["profile"]}, actor: "attacker", noBody: true},
		"DELETE /v1/saved/{profileId}": {vars: map[string]string{"profileId": w.ids["profile"]}, actor: "attacker"},
	}
}

// routeTable walks the mux router for every /v1 route with methods.
func (w *sweepWorld) routeTable(t *testing.T) []sweepRoute {
	t.Helper()
	var out []sweepRoute
	err := w.srv.router.Walk(func(route *mux.Route, router *mux.Router, ancestors []*mux.Route) error {
		tmpl, err := route.GetPathTemplate()
		if err != nil || !strings.HasPrefix(tmpl, "/v1/") {
			return nil
		}
		methods, err := route.GetMethods()
		if err != nil {
			return nil // a subrouter's prefix, not a route
		}
		for _, m := range methods {
			out = append(out, sweepRoute{method: m, template: tmpl})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var varPattern = regexp.MustCompile(`\{([a-zA-Z]+)(:[^}]*)?\}`)

// fill writes vals into a route template's variables.
func fill(tmpl string, vals map[string]string) string {
	return varPattern.ReplaceAllStringFunc(tmpl, func(m string) string {
		name := varPattern.FindStringSubmatch(m)[1]
		return vals[name]
	})
}

// Hostile values.
var (
	hugeBody      = []byte(`{"x":"` + strings.Repeat("a", 10<<20) + `"}`)
	hugeArray     = []byte(strings.Repeat("[", 10<<20))
	longText      = strings.Repeat("ب", 100_000)
	hostilePathID = []string{"0", "1", "999999999", "18446744073709551616", "00000000000000000001", "abc", "-1",
		"%27%20OR%201%3D1--", "%E2%80%AE1", "%00", "1.5", "1e3", strings.Repeat("9", 400), "%F0%9F%99%82", "..%2F..%2Fetc%2Fpasswd"}
	hostileRaw = []struct {
		name string
		body string
	}{
		{"Empty", ""}, {"OpenBrace", "{"}, {"Array", "[]"}, {"Null", "null"}, {"True", "true"}, {"Number", "123"},
		{"String", `"x"`}, {"Truncated", `{"a":`}, {"TrailingGarbage", `{}{}`}, {"InvalidUTF8", "{\"x\":\"\xff\xfe\"}"},
		{"BOM", "\ufeff{}"}, {"NaN", `{"x":NaN}`}, {"HugeExponent", `{"take":1e999}`}, {"SingleQuotes", `{'a':1}`},
		{"Comment", `{/* x */}`}, {"DeepNesting", strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000)},
		{"NulByte", "{\"x\":\"a\x00b\"}"}, {"LoneSurrogate", `{"x":"\ud800"}`}, {"XML", `<?xml version="1.0"?><a/>`},
		{"FormEncoded", "a=1&b=2"}, {"SQLInjection", `{"id":"1; DROP TABLE users; --"}`}, {"UnknownOnly", `{"zzz":1,"__proto__":{"admin":true}}`},
		{"TypeSoup", `{"id":"x","take":"y","skip":[],"score":{},"user_technical_id":true,"numberPhone":12,"title":5,"status":[1]}`},
		{"NegativeNumbers", `{"id":-1,"take":-1,"skip":-1,"score":-5,"user_technical_id":-9,"province_id":-1,"lat":-1000}`},
		{"HugeNumbers", `{"id":9223372036854775807,"take":9223372036854775807,"skip":99999999999999999999,"score":1e308,"user_technical_id":18446744073709551616}`},
		{"Floats", `{"id":1.5,"take":2.5,"score":4.999,"user_technical_id":0.1}`},
		{"BidiAndZWNJ", `{"name":"\u202eevil\u202c","title":"a\u200cb\u200d","description":"\u2066x\u2069","search_txt":"\u200f\u200e"}`},
		{"ControlChars", `{"name":"\u0001\u0002\u001b[31m","title":"\t\r\n","description":"\u0000"}`},
		{"HTMLInjection", `{"name":"<script>alert(1)</script>","title":"<img src=x onerror=alert(1)>","content":"<iframe src=javascript:alert(1)>","description":"\"><svg onload=alert(1)>"}`},
		{"LongStrings", `{"name":"` + longText + `","title":"` + longText + `","description":"` + longText + `","search_txt":"` + longText + `","slug":"` + longText + `"}`},
		{"PathTraversal", `{"profileImage":"../../../etc/passwd","image_url":"/uploads/../../kardan.db","profile_image":"file:///etc/passwd","logo":"http://evil.example/x.png"}`},
		{"EmptyStrings", `{"name":"","title":"","description":"","numberPhone":"","password":"","slug":"","status":""}`},
		{"Whitespace", `{"name":"   ","title":"\u00a0\u00a0","description":"\u200b\u200b"}`},
		{"Emoji", `{"name":"🙂🙂🙂","title":"👩‍👩‍👧‍👦","description":"🏳️‍🌈"}`},
		{"DuplicateKeys", `{"id":1,"id":"x","take":1,"take":null}`},
	}
	hostileValues = []struct {
		name string
		json string
	}{
		{"Null", "null"}, {"True", "true"}, {"String", `"x"`}, {"EmptyString", `""`}, {"Number", "7"}, {"Negative", "-1"},
		{"Huge", "9223372036854775807"}, {"Overflow", "18446744073709551616"}, {"Float", "0.5"}, {"Exponent", "1e308"},
		{"Array", `[1,"a",null]`}, {"Object", `{"a":{"b":[]}}`}, {"SQL", `"' OR '1'='1' --"`}, {"HTML", `"<script>alert(1)</script>"`},
		{"Long", `"` + longText + `"`}, {"Bidi", `"\u202e\u2066x\u2069"`}, {"ZWNJ", `"\u200c\u200c"`}, {"Control", `"\u0000\u0007"`},
		{"OtherUsersID", "IDOFNEIGHBOUR"},
	}
	hostileQuery = []string{"", "-1", "0", "abc", "1e309", "18446744073709551616", "%27%20OR%201%3D1", "%3Cscript%3E",
		"%E2%80%AE", strings.Repeat("9", 300), "1&" + strings.Repeat("x=1&", 2000), "NaN", "Infinity", "%00", "1.5", "Pending%00",
		"%2e%2e%2f%2e%2e%2f", "[]", "{}", "true", "null", "%201", "1%20", "%D9%A3", "%DB%B1%DB%B2", "%ZZ"}
)

// crafted are the hostile files for the upload route.
func craftedFiles(valid []byte) []struct {
	name, key, file string
	data            []byte
} {
	bomb := pngHeaderOf(100_000, 100_000)
	var gif bytes.Buffer
	gif.WriteString("GIF89a\xff\xff\xff\xff\x00\x00\x00;")
	var pngBuf bytes.Buffer
	png.Encode(&pngBuf, image.NewNRGBA(image.Rect(0, 0, 8, 8)))
	return []struct {
		name, key, file string
		data            []byte
	}{
		{"PixelBombPNG", "userTechnical", "a.png", bomb},
		{"PixelBombGIF", "userTechnical", "a.gif", gif.Bytes()},
		{"TruncatedJPEG", "userTechnical", "a.jpg", valid[:len(valid)/2]},
		{"TruncatedHeader", "userTechnical", "a.jpg", valid[:20]},
		{"HTMLAsJPEG", "userTechnical", "a.jpg", []byte("<html><script>alert(1)</script></html>")},
		{"SVG", "userTechnical", "a.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`)},
		{"PolyglotHTMLFirst", "userTechnical", "a.png", append([]byte("<html><!--"), pngBuf.Bytes()...)},
		{"Empty", "userTechnical", "a.jpg", nil},
		{"BadKey", "admin", "a.jpg", valid},
		{"NoKey", "", "a.jpg", valid},
		{"KeyInjection", "user'; DROP TABLE uploads; --", "a.jpg", valid},
		{"LongFileName", "user", strings.Repeat("a", 5000) + ".jpg", valid},         // accepted: the name is never used
		{"TraversalFileName", "user", "../../../kardan.db", pngBuf.Bytes()},         // accepted: stored by content hash
		{"ScriptFileName", "user", "<script>alert(1)</script>.jpg", pngBuf.Bytes()}, // accepted: stored by content hash
		{"TooLarge", "user", "a.jpg", append(append([]byte{}, valid...), make([]byte, 10<<20)...)},
		{"ZeroDimensions", "user", "a.png", pngHeaderOf(0, 0)},
	}
}

// pngHeaderOf is a PNG signature and IHDR chunk claiming w×h pixels: the shape of a pixel bomb.
func pngHeaderOf(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6
	for _, c := range []struct {
		typ  string
		data []byte
	}{{"IHDR", ihdr}, {"IDAT", []byte{0x78, 0x9c, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01}}, {"IEND", nil}} {
		binary.Write(&b, binary.BigEndian, uint32(len(c.data)))
		b.WriteString(c.typ)
		b.Write(c.data)
		binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(c.typ), c.data...)))
	}
	return b.Bytes()
}

func multipartBody(key, file string, data []byte) ([]byte, string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	if key != "" {
		mw.WriteField("uploadKey", key)
	}
	fw, _ := mw.CreateFormFile("file", file)
	fw.Write(data)
	mw.Close()
	return b.Bytes(), mw.FormDataContentType()
}

// cases builds the hostile requests of one route.
func (w *sweepWorld) cases(t *testing.T, r sweepRoute, spec routeSpec) (foreign, own []sweepCase) {
	langs := []string{"fa", "en"}
	n := 0
	lang := func() string { n++; return langs[n%2] }
	valid := fill(r.template, spec.vars)
	body := []byte(spec.body)
	hasBody := r.method == "POST" || r.method == "PUT"

	// Foreign: anonymous and the attacker, aiming at the owner's resources.
	for _, tok := range []string{"", w.tok["attacker"]} {
		c := sweepCase{name: "ValidBody", method: r.method, path: valid, raw: body, token: tok, lang: lang()}
		if spec.ownerOnly {
			c.must4xx = true
		}
		foreign = append(foreign, c)
		for name, hdr := range map[string]map[string]string{
			"BearerEmpty":   {"Authorization": "Bearer "},
			"BearerLong":    {"Authorization": "Bearer " + strings.Repeat("A", 8000)},
			"BearerControl": {"Authorization": "Bearer a\x01b"},
			"Basic":         {"Authorization": "Basic YWRtaW46YWRtaW4="},
			"ForgedXFF":     {"X-Forwarded-For": "127.0.0.1, 10.0.0.1", "X-Real-Ip": "127.0.0.1"},
			"BadLanguage":   {"Accept-Language": strings.Repeat("fa;q=x,", 500)},
			"WrongType":     {"Content-Type": "text/plain; charset=utf-16"},
		} {
			if tok != "" && strings.HasPrefix(name, "B") {
				continue // the attacker's own token stands
			}
			c := sweepCase{name: "Header" + name, method: r.method, path: valid, raw: body, token: tok, lang: lang(), header: hdr, must4xx: spec.ownerOnly}
			foreign = append(foreign, c)
		}
	}
	vars := varPattern.FindAllStringSubmatch(r.template, -1)
	for _, v := range vars {
		for _, h := range hostilePathID {
			vals := map[string]string{}
			for k, x := range spec.vars {
				vals[k] = x
			}
			vals[v[1]] = h
			for _, tok := range []string{w.tok["attacker"], w.tok["owner"]} {
				if tok == w.tok["owner"] && r.method == "DELETE" && w.ownsID(h) {
					continue // the owner deleting their own profile or blog would end the other routes' cases
				}
				c := sweepCase{name: "PathVar" + v[1] + h, method: r.method, path: fill(r.template, vals), raw: body, token: tok, lang: lang()}
				if tok == w.tok["owner"] {
					own = append(own, c)
				} else {
					c.must4xx = spec.ownerOnly
					foreign = append(foreign, c)
				}
			}
		}
	}
	// Query strings: the parameters a route reads, or an unknown one for routes that read none.
	params := spec.query
	if len(params) == 0 {
		params = []string{"id"}
	}
	for i, h := range hostileQuery {
		q := params[i%len(params)]
		path := valid + "?" + q + "=" + h
		foreign = append(foreign, sweepCase{name: "Query" + q, method: r.method, path: path, raw: body, token: w.tok["attacker"], lang: lang(), must4xx: spec.ownerOnly})
		if !hasBody {
			foreign = append(foreign, sweepCase{name: "QueryAnon" + q, method: r.method, path: path, raw: body, lang: lang(), must4xx: spec.ownerOnly})
		}
	}
	if len(spec.query) > 1 {
		var all []string
		for _, q := range spec.query {
			all = append(all, q+"=-1")
		}
		foreign = append(foreign, sweepCase{name: "QueryAllNegative", method: r.method, path: valid + "?" + strings.Join(all, "&"), token: w.tok["attacker"], lang: lang(), must4xx: spec.ownerOnly})
	}
	if hasBody && !spec.multipart {
		actor := w.tok[spec.actor]
		for _, h := range hostileRaw {
			c := sweepCase{name: "Raw" + h.name, method: r.method, path: valid, raw: []byte(h.body), token: w.tok["attacker"], lang: lang(), must4xx: spec.ownerOnly}
			foreign = append(foreign, c)
			if actor != "" && spec.actor != "attacker" {
				own = append(own, sweepCase{name: "OwnRaw" + h.name, method: r.method, path: valid, raw: []byte(h.body), token: actor, lang: lang()})
			}
		}
		for _, big := range []struct {
			name string
			b    []byte
		}{{"TenMiB", hugeBody}, {"TenMiBNesting", hugeArray}} {
			foreign = append(foreign, sweepCase{name: big.name, method: r.method, path: valid, raw: big.b, token: w.tok["attacker"], lang: lang(), must4xx: !spec.noBody})
		}
		// Spoil the valid body one field at a time, as its rightful actor sends it.
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(body, &fields); err == nil {
			names := make([]string, 0, len(fields))
			for k := range fields {
				names = append(names, k)
			}
			sort.Strings(names)
			for _, f := range names {
				for _, h := range hostileValues {
					val := h.json
					if val == "IDOFNEIGHBOUR" {
						val = w.ids["neighbourProfile"]
					}
					m := map[string]json.RawMessage{}
					for k, v := range fields {
						m[k] = v
					}
					m[f] = json.RawMessage(val)
					b, _ := json.Marshal(m)
					own = append(own, sweepCase{name: "Field" + f + h.name, method: r.method, path: valid, raw: b, token: actor, lang: lang()})
				}
				m := map[string]json.RawMessage{}
				for k, v := range fields {
					if k != f {
						m[k] = v
					}
				}
				b, _ := json.Marshal(m)
				own = append(own, sweepCase{name: "Missing" + f, method: r.method, path: valid, raw: b, token: actor, lang: lang()})
			}
		}
	}
	if spec.multipart {
		for _, f := range craftedFiles(w.img) {
			b, ct := multipartBody(f.key, f.file, f.data)
			for _, tok := range []string{"", w.tok["attacker"]} {
				named := strings.HasSuffix(f.name, "FileName") && tok != ""
				foreign = append(foreign, sweepCase{name: "File" + f.name, method: r.method, path: valid, raw: b, ctype: ct, token: tok,
					lang: lang(), must4xx: !named, contentAddressed: named})
			}
		}
		for _, h := range hostileRaw {
			foreign = append(foreign, sweepCase{name: "RawNotMultipart" + h.name, method: r.method, path: valid, raw: []byte(h.body), token: w.tok["attacker"], lang: lang(), must4xx: true})
		}
		b, _ := multipartBody("user", "a.jpg", w.img)
		foreign = append(foreign,
			sweepCase{name: "TruncatedMultipart", method: r.method, path: valid, raw: b[:len(b)/2], ctype: "multipart/form-data; boundary=x", token: w.tok["attacker"], lang: lang(), must4xx: true},
			sweepCase{name: "NoBoundary", method: r.method, path: valid, raw: b, ctype: "multipart/form-data", token: w.tok["attacker"], lang: lang(), must4xx: true},
		)
	}
	return foreign, own
}

// ownerDigest hashes everything the owner owns that others must not change: the account, its
// live sessions, its profile's own fields, its comment, its blog and its contact message.
func (w *sweepWorld) ownerDigest(t *testing.T) string {
	t.Helper()
	h := sha256.New()
	owner := w.usr["owner"].ID
	for _, q := range []string{
		`SELECT number_phone, name, password_hash, profile_image, role FROM users WHERE id = ?1`,
		`SELECT COUNT(*) FROM sessions WHERE user_id = ?1 AND revoked_at IS NULL`,
		`SELECT id, profile_name, slug, descriotion, services, hours_of_work, social_network, area_working, account_status, active,
			display, delete_at, profile_image, logo, city_id, range_worker_id FROM profiles WHERE user_id = ?1 ORDER BY id`,
		`SELECT id, description, score, hidden, reply FROM comments WHERE user_id = ?1 ORDER BY id`,
		`SELECT id, title, slug, content, summary, status, tag, image_url FROM blogs WHERE writer_id = ?1 ORDER BY id`,
		`SELECT id, message, subject FROM critics WHERE user_id = ?1 ORDER BY id`,
		`SELECT address FROM uploads WHERE user_id = ?1 ORDER BY id`,
	} {
		rows, err := w.st.DB().Query(q, owner)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			rows.Scan(ptrs...)
			fmt.Fprintf(h, "%v\n", vals)
		}
		rows.Close()
	}
	return hex.EncodeToString(h.Sum(nil))
}

// check runs one case and answers what was wrong with the answer, if anything.
func (w *sweepWorld) check(t *testing.T, c sweepCase) (int, string) {
	rec := w.send(t, c)
	code := rec.Code
	if (code == http.StatusMovedPermanently || code == http.StatusPermanentRedirect) && strings.Contains(c.path, "..") {
		// The router answers a path with dot segments by redirecting to its cleaned form, before
		// any handler runs; the redirect must not lead outside the site.
		loc, err := url.Parse(rec.Header().Get("Location"))
		if err != nil || (loc.Host != "" && loc.Host != "kardan.example") || strings.Contains(loc.Path, "..") {
			return code, fmt.Sprintf("redirect to %q", rec.Header().Get("Location"))
		}
		return code, ""
	}
	if code >= 500 {
		return code, fmt.Sprintf("status %d: %.300s", code, rec.Body)
	}
	if !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		return code, fmt.Sprintf("status %d is not JSON (%s): %.200s", code, rec.Header().Get("Content-Type"), rec.Body)
	}
	var env struct {
		Payload json.RawMessage `json:"payload"`
		Message json.RawMessage `json:"message"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.Message == nil {
		return code, fmt.Sprintf("status %d is not the envelope: %.200s", code, rec.Body)
	}
	if code >= 400 {
		var msg any
		json.Unmarshal(env.Message, &msg)
		text := fmt.Sprint(msg)
		if strings.TrimSpace(text) == "" || text == "[]" {
			return code, fmt.Sprintf("status %d without a message", code)
		}
		if c.lang == "fa" && c.header["Accept-Language"] == "" && !hasArabicScript(text) {
			return code, fmt.Sprintf("status %d: message %q is not in Persian", code, text)
		}
	}
	if c.must4xx && (code < 400 || code >= 500) {
		return code, fmt.Sprintf("status %d, want a 4xx: %.200s", code, rec.Body)
	}
	if c.contentAddressed && code == 200 {
		var up struct {
			Address string `json:"address"`
		}
		json.Unmarshal(env.Payload, &up)
		if !regexp.MustCompile(`^/uploads/[0-9a-f]{2}/[0-9a-f]{64}\.(jpg|png)$`).MatchString(up.Address) {
			return code, fmt.Sprintf("upload stored as %q, not by its content hash", up.Address)
		}
	}
	return code, ""
}

func hasArabicScript(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Arabic, r) {
			return true
		}
	}
	return false
}

func TestHostileInputSweep(t *testing.T) {
	w := newSweepWorld(t)
	specs := w.specs()
	routes := w.routeTable(t)
	if len(routes) < 40 {
		t.Fatalf("the route table has only %d /v1 routes", len(routes))
	}
	seen := map[string]bool{}
	for _, r := range routes {
		seen[r.String()] = true
		if _, ok := specs[r.String()]; !ok {
			t.Errorf("route %s has no sweep cases: add it to specs()", r)
		}
	}
	for k := range specs {
		if !seen[k] {
			t.Errorf("specs() names %s, which the route table does not have", k)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	type tally struct{ cases, c2xx, c4xx int }
	counts := map[string]*tally{}
	var owns []sweepCase
	var ownRoute []sweepRoute
	before := w.ownerDigest(t)
	total := 0
	fail := func(r sweepRoute, c sweepCase, why string) {
		t.Errorf("%s %s (%s, %s): %s", r, c.name, c.path[:min(len(c.path), 120)], tokenName(w, c.token), why)
	}
	record := func(r sweepRoute, code int) {
		tl := counts[r.String()]
		if tl == nil {
			tl = &tally{}
			counts[r.String()] = tl
		}
		tl.cases++
		total++
		switch {
		case code < 300:
			tl.c2xx++
		case code < 500:
			tl.c4xx++
		}
	}
	// Foreign callers first, for every route; the owner's data is then compared.
	for _, r := range routes {
		foreign, own := w.cases(t, r, specs[r.String()])
		for _, c := range foreign {
			if r.template == "/v1/user/logout" && c.token != "" {
				c.token = w.mint(t, w.usr["attacker"]) // logging out must not end the attacker's other cases
			}
			code, why := w.check(t, c)
			record(r, code)
			if why != "" {
				fail(r, c, why)
			}
		}
		owns = append(owns, own...)
		for range own {
			ownRoute = append(ownRoute, r)
		}
	}
	if after := w.ownerDigest(t); after != before {
		t.Errorf("anonymous and attacker requests changed the owner's data")
	}
	// Then each route's rightful actor with spoiled bodies and paths: their own data may change,
	// but never with a 5xx. Blogs and comments go first, while the owner is still an accepted
	// expert with a visible profile; moderation (which may block it) and deletions go last.
	order := make([]int, len(owns))
	for i := range order {
		order[i] = i
	}
	stage := func(r sweepRoute) int {
		switch {
		case r.method == "DELETE" || r.template == "/v1/user/logout":
			return 3
		case strings.Contains(r.template, "/admin/"):
			return 2
		case strings.HasPrefix(r.template, "/v1/blog/") || strings.HasPrefix(r.template, "/v1/comment/"):
			return 0
		}
		return 1
	}
	sort.SliceStable(order, func(a, b int) bool { return stage(ownRoute[order[a]]) < stage(ownRoute[order[b]]) })
	for _, i := range order {
		c, r := owns[i], ownRoute[i]
		if r.template == "/v1/user/logout" {
			c.token = w.mint(t, w.usr["owner"])
		}
		code, why := w.check(t, c)
		record(r, code)
		if why != "" {
			fail(r, c, why)
		}
	}
	names := make([]string, 0, len(counts))
	for k := range counts {
		names = append(names, k)
	}
	sort.Strings(names)
	var lines []string
	for _, k := range names {
		tl := counts[k]
		if tl.cases < minSweepCases {
			t.Errorf("route %s: only %d cases, want at least %d", k, tl.cases, minSweepCases)
		}
		lines = append(lines, fmt.Sprintf("%-58s %4d cases: %4d 2xx, %4d 4xx", k, tl.cases, tl.c2xx, tl.c4xx))
	}
	t.Logf("hostile-input sweep: %d cases over %d routes, no 5xx allowed\n%s", total, len(names), strings.Join(lines, "\n"))
}

func tokenName(w *sweepWorld, tok string) string {
	for k, v := range w.tok {
		if v == tok {
			return k
		}
	}
	if tok == "" {
		return "anonymous"
	}
	return "fresh session"
}
