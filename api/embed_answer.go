package api

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"kardan/search"
	"kardan/store"
)

// A profile or search page is an app page: its HTML carries no content, and the app asks the
// API for the profile or the results once its script has run. On a phone's slow network that
// request is one more round trip before anything worth reading shows. So for a visitor the
// server answers that first request itself while it writes the page, into a data block the app
// takes instead of asking (webui/src/api/first.ts): once, for exactly the request it would have
// sent, and only when nobody is signed in, since owners and admins are answered differently.

// firstAnswerID is the id of the data block; webui/src/api/first.ts reads it.
const firstAnswerID = "first-answer"

// firstAnswer is an API request the page's app makes first and the body the API answers to it.
type firstAnswer struct {
	path   string
	body   []byte // the request's JSON body, as the app sends it
	answer []byte // the whole envelope, as the API writes it
	// category is the node of the category tree a search names (JSON, without its children), or
	// nil: the page's heading names it and its price-request bar needs it, and without it the app
	// draws both only when its category tree arrives, a moment after it has taken the page over,
	// which on a phone moved the results down (journey 38).
	category []byte
}

// Pages whose first request is answered in the page, as src/main.tsx recognises them.
var (
	profilePage = regexp.MustCompile(`^/profile/([^/]+)/?$`)
	searchPage  = regexp.MustCompile(`^/search/([^/]+)(?:/([^/]+))?/?$`)
)

// firstAnswerFor answers the first API request of the page at r for a visitor, or nil: for
// signed-in users, for pages without one, and when the request fails (the app then asks, and
// shows the failure as it always does).
func (s *Server) firstAnswerFor(r *http.Request, m pageMeta) *firstAnswer {
	if m.Status != 0 || r.Method != http.MethodGet || (m.Route != routeProfile && m.Route != routeSearch) || signedIn(r) {
		return nil
	}
	p := r.URL.EscapedPath()
	switch m.Route {
	case routeProfile:
		body, ok := firstProfileBody(p)
		if !ok {
			return nil
		}
		return s.answerOf(r, "/v1/user-technical/searchUserSlag", body, s.handleSearchUserSlag)
	case routeSearch:
		body, ok := firstSearchBody(p, r.URL.RawQuery)
		if !ok {
			return nil
		}
		// The search the page would have asked for counts against the same limit.
		if s.searchLimit != nil {
			if ok, _ := s.searchLimit.take(r.Context(), s.addrKeyOf(r)); !ok {
				return nil
			}
		}
		a := s.answerOf(r, "/v1/user-technical/searchUser", body, s.handleSearchUser)
		if a != nil {
			a.category = s.searchCategory(r, body)
		}
		return a
	}
	return nil
}

// searchCategory answers the category node a searchUser body names, as the category tree writes
// it but without its children, or nil when it names none. The node is the one the search used
// (the API reads the slug trimmed and in lower case); the app takes it only when its slug is the
// one in its address, as it would find it in the tree.
func (s *Server) searchCategory(r *http.Request, body []byte) []byte {
	var b firstSearch
	if json.Unmarshal(body, &b) != nil || b.CategorySlag == "" {
		return nil
	}
	tree, err := s.categories(r.Context())
	if err != nil {
		return nil
	}
	c := tree.BySlag(strings.ToLower(strings.TrimSpace(b.CategorySlag)))
	if c == nil {
		return nil
	}
	node := *c
	node.Children = []*store.Category{}
	out, err := json.Marshal(node)
	if err != nil {
		return nil
	}
	return out
}

// signedIn reports whether r may come from a signed-in user: the app keeps its session token in
// the "token" cookie and sends it as a bearer token.
func signedIn(r *http.Request) bool {
	if r.Header.Get("Authorization") != "" {
		return true
	}
	c, err := r.Cookie("token")
	return err == nil && c.Value != ""
}

// answerOf runs an API handler on a visitor's POST of body to path and answers its envelope when
// it succeeds.
func (s *Server) answerOf(r *http.Request, path string, body []byte, h func(http.ResponseWriter, *http.Request) error) *firstAnswer {
	req, err := http.NewRequestWithContext(withUser(r.Context(), nil), http.MethodPost, path, bytes.NewReader(body))
	if err != nil {
		return nil
	}
	req.Header.Set("Content-Type", "application/json")
	// The page's view and appearances are counted here, for the visitor's browser (not a bot's).
	req.Header.Set("User-Agent", r.UserAgent())
	var w answerRecorder
	if err := h(&w, req); err != nil || w.status != http.StatusOK {
		return nil
	}
	return &firstAnswer{path: path, body: body, answer: bytes.TrimSpace(w.body)}
}

// answerRecorder keeps an answer written for the page instead of the network.
type answerRecorder struct {
	header http.Header
	status int
	body   []byte
}

func (a *answerRecorder) Header() http.Header {
	if a.header == nil {
		a.header = http.Header{}
	}
	return a.header
}

func (a *answerRecorder) WriteHeader(code int) {
	if a.status == 0 {
		a.status = code
	}
}

func (a *answerRecorder) Write(p []byte) (int, error) {
	a.WriteHeader(http.StatusOK)
	a.body = append(a.body, p...)
	return len(p), nil
}

// firstProfileBody answers the searchUserSlag body the profile page at the escaped path sends
// first, as webui/src/lib/firstRequest.ts reads it: {"slug": the decoded path segment}.
func firstProfileBody(escapedPath string) ([]byte, bool) {
	sm := profilePage.FindStringSubmatch(escapedPath)
	if sm == nil {
		return nil, false
	}
	slug, err := url.PathUnescape(sm[1])
	if err != nil {
		return nil, false
	}
	body, err := json.Marshal(struct {
		Slug string `json:"slug"`
	}{slug})
	return body, err == nil
}

// firstSearch is the searchUser body the search page sends first; its fields are in the order,
// and left out in the cases, that webui/src/lib/searchUrl.ts's searchBody writes them.
type firstSearch struct {
	Take         int      `json:"take"`
	Skip         int      `json:"skip"`
	CategorySlag string   `json:"category_slag,omitempty"`
	CitySlag     string   `json:"city_slag,omitempty"`
	ProvinceID   int64    `json:"province_id,omitempty"`
	MinScore     float64  `json:"min_score,omitempty"`
	SearchTxt    string   `json:"search_txt,omitempty"`
	Order        string   `json:"order,omitempty"`
	OpenNow      bool     `json:"open_now,omitempty"`
	PriceMin     int64    `json:"price_min,omitempty"`
	PriceMax     int64    `json:"price_max,omitempty"`
	Lat          *float64 `json:"lat,omitempty"`
	Long         *float64 `json:"long,omitempty"`
	Radius       int      `json:"radius,omitempty"`
}

// searchRadii are the distances the search page offers around a known point, in metres
// (webui's searchUrl.ts RADII).
var searchRadii = []int{1000, 2000, 5000, 10000, 25000, 50000}

// nearPoint is the point of "nearest" in a search address, "lat,long" (webui's searchUrl.ts NEAR).
var nearPoint = regexp.MustCompile(`^(-?\d{1,3}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)$`)

// firstSearchBody answers the body of the search page at the escaped path and raw query, read as
// filtersFromUrl and searchBody read it in the app: /search/{city|iran}/{category?}?q=&province=
// &min_score=&order=&open=&near=&radius=&price_min=&price_max=&page=. The app compares the bodies before it takes the answer, so a
// difference here costs the round trip saved, never a wrong page; the cases of
// testdata/first_answer_urls.json, which the app's tests read too, keep the two readings equal.
func firstSearchBody(escapedPath, rawQuery string) ([]byte, bool) {
	sm := searchPage.FindStringSubmatch(escapedPath)
	if sm == nil {
		return nil, false
	}
	city, err := url.PathUnescape(sm[1])
	if err != nil {
		return nil, false
	}
	category, err := url.PathUnescape(sm[2])
	if err != nil {
		return nil, false
	}
	qs, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, false
	}
	b := firstSearch{Take: defaultTake, CategorySlag: trimJS(category), SearchTxt: trimJS(qs.Get("q"))}
	if c := strings.ToLower(trimJS(city)); c != "" && c != "iran" {
		b.CitySlag = c
	}
	if page, ok := positiveInt(qs.Get("page")); ok {
		b.Skip = (page - 1) * defaultTake
	}
	if id, ok := positiveInt(qs.Get("province")); ok {
		b.ProvinceID = int64(id)
	}
	if ms, ok := decimal(qs.Get("min_score")); ok && ms > 0 && ms <= 5 {
		b.MinScore = ms
	}
	if o := qs.Get("order"); o != "" && search.ValidOrder(o) {
		b.Order = o
	}
	b.OpenNow = qs.Get("open") == "1"
	if m := nearPoint.FindStringSubmatch(qs.Get("near")); m != nil {
		lat, err1 := strconv.ParseFloat(m[1], 64)
		long, err2 := strconv.ParseFloat(m[2], 64)
		if err1 == nil && err2 == nil && math.Abs(lat) <= 90 && math.Abs(long) <= 180 {
			b.Lat, b.Long = &lat, &long
		}
	}
	// A radius means nothing without its point.
	if r, ok := positiveInt(qs.Get("radius")); ok && b.Lat != nil && slices.Contains(searchRadii, r) {
		b.Radius = r
	}
	// A range upside down is read as its two ends in order, as the app writes them.
	lo, okLo := positiveWhole(qs.Get("price_min"), maxPrice)
	hi, okHi := positiveWhole(qs.Get("price_max"), maxPrice)
	if okLo && okHi && lo > hi {
		lo, hi = hi, lo
	}
	b.PriceMin, b.PriceMax = lo, hi // 0 when absent or unreadable: left out
	body, err := json.Marshal(b)
	return body, err == nil
}

// plainDecimal is the number the app reads from an address (webui/src/lib/searchUrl.ts DECIMAL):
// ParseFloat alone would also take "inf" and "0x1p4", which the app does not.
var plainDecimal = regexp.MustCompile(`^[ \t\n\r]*\+?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[ \t\n\r]*$`)

// decimal reads a plain decimal number.
func decimal(s string) (float64, bool) {
	if !plainDecimal.MatchString(s) {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.Trim(s, " \t\n\r"), 64)
	return f, err == nil
}

// positiveInt reads a whole number above zero, as the app does.
func positiveInt(s string) (int, bool) {
	n, ok := positiveWhole(s, math.MaxInt32)
	return int(n), ok
}

// positiveWhole reads a whole number above zero and at most limit, as the app does.
func positiveWhole(s string, limit int64) (int64, bool) {
	f, ok := decimal(s)
	if !ok || f <= 0 || f != math.Trunc(f) || f > float64(limit) {
		return 0, false
	}
	return int64(f), true
}

// trimJS trims what JavaScript's String.prototype.trim trims: Unicode white space and line
// terminators and the byte-order mark, but not U+0085, which strings.TrimSpace also removes.
func trimJS(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return r == '\uFEFF' || (r != '\u0085' && unicode.IsSpace(r))
	})
}

// appendFirstAnswer appends the data block that carries a: {"path", "body", "answer"} and, for a
// search naming a category, "category", with every "<", ">" and "&" written as a JSON escape, so
// no text inside it can close the block.
func appendFirstAnswer(b []byte, a *firstAnswer) []byte {
	b = append(b, `<script type="application/json" id="`+firstAnswerID+`">{"path":`...)
	b = appendString(b, a.path)
	b = append(b, `,"body":`...)
	b = appendScriptSafe(b, a.body)
	b = append(b, `,"answer":`...)
	b = appendScriptSafe(b, a.answer)
	if a.category != nil {
		b = append(b, `,"category":`...)
		b = appendScriptSafe(b, a.category)
	}
	return append(b, "}</script>"...)
}

// appendScriptSafe appends JSON text with "<", ">" and "&" escaped. Outside strings JSON never
// has these bytes, and inside them the escapes read as the same characters.
func appendScriptSafe(b, js []byte) []byte {
	for len(js) > 0 {
		i := bytes.IndexAny(js, "<>&")
		if i < 0 {
			return append(b, js...)
		}
		b = append(b, js[:i]...)
		b = append(b, '\\', 'u', '0', '0', hexDigits[js[i]>>4], hexDigits[js[i]&0xF])
		js = js[i+1:]
	}
	return b
}
