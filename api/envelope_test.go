package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"kardan/store"
)

func TestCatalogue(t *testing.T) {
	placeholder := regexp.MustCompile(`\{[a-z_]+\}`)
	for key, pair := range catalogue {
		if strings.TrimSpace(pair[0]) == "" || strings.TrimSpace(pair[1]) == "" {
			t.Errorf("%s: a language is empty: %q", key, pair)
		}
		fa, en := placeholder.FindAllString(pair[0], -1), placeholder.FindAllString(pair[1], -1)
		slices.Sort(fa)
		slices.Sort(en)
		if !slices.Equal(fa, en) {
			t.Errorf("%s: placeholders differ: fa %v, en %v", key, fa, en)
		}
	}
	// SPEC.md §8 and §5 must all be there, in English word for word.
	for _, want := range []string{"Please check your internet", "Server error try again", "Sorry, there was a problem",
		"Server-side error occurred", "Item not found !", "No items found", "Information not received", "Page Not Found",
		"Your requested page does not exist", "Categories not received", "The list of provinces was not received",
		"Your position was not found, you can use search in this range", "Try again", "Enter {des}", "Enter correct {des}",
		"You have already posted a comment", "Please log in first to post a comment"} {
		found := false
		for _, pair := range catalogue {
			found = found || pair[1] == want
		}
		if !found {
			t.Errorf("catalogue lacks %q", want)
		}
	}
}

// TestEnglishSentencesStartWithACapital renders every English text of the catalogue with every
// field label (and every weekday and status) in its placeholders, and expects each sentence to
// begin with a capital: labels are lower case for the middle of a sentence ("Enter page size"),
// and a template that begins with one ("{des} must be between …") must still read as a sentence.
func TestEnglishSentencesStartWithACapital(t *testing.T) {
	var fields []string
	for key := range catalogue {
		if f, ok := strings.CutPrefix(key, "field."); ok {
			fields = append(fields, f)
		}
	}
	slices.Sort(fields)
	if len(fields) < 50 {
		t.Fatalf("only %d field labels", len(fields))
	}
	for key, pair := range catalogue {
		if strings.HasPrefix(key, "field.") {
			continue // labels, for the middle of a sentence
		}
		if _, ok := searchPageMessages[key]; ok || key == "content_all_iran" {
			// Pieces of a page, not sentences: the search page's texts are the app's own, held equal
			// to it by TestSearchPageMessagesAreTheApps ("until 20:30" on a card, "km"), and "all of
			// Iran" stands in the middle of a heading.
			continue
		}
		for _, f := range fields {
			args := map[string]any{"des": f, "min": 1, "max": 9, "day": "monday", "from": "Pending", "to": "Accepted",
				"seconds": 5, "days": 3, "type": "Email", "category": "Plumbing", "phone": "09120000000",
				"trade": "plumber", "city": "Tehran"}
			got := message(En, key, args)
			r := []rune(got)[0]
			if unicode.IsLetter(r) && !unicode.IsUpper(r) {
				t.Errorf("%s with %s: %q does not start with a capital", key, f, got)
				break
			}
			if !strings.Contains(pair[1], "{des}") {
				break // one rendering is enough
			}
		}
	}
	for _, c := range []struct{ key, des, want string }{
		{"out_of_range", "take", "Page size must be between 1 and 9"},
		{"too_long", "search_txt", "Search text can be at most 9 characters"},
		{"too_short", "password", "Password must be at least 1 characters"},
		{"enter", "profile_name", "Enter business name"},
		{"enter_correct", "city_slag", "Enter correct city"},
	} {
		if got := message(En, c.key, map[string]any{"des": c.des, "min": 1, "max": 9}); got != c.want {
			t.Errorf("%s: got %q, want %q", c.key, got, c.want)
		}
	}
	// Persian has no capitals: its text is left as written.
	if got := message(Fa, "out_of_range", map[string]any{"des": "take", "min": 1, "max": 9}); !strings.HasPrefix(got, "اندازهٔ صفحه") {
		t.Errorf("fa: got %q", got)
	}
}

func TestMessage(t *testing.T) {
	if got := message(Fa, "enter", map[string]any{"des": "lat"}); got != "عرض جغرافیایی را وارد کنید" {
		t.Errorf("got %q", got)
	}
	if got := message(En, "too_many", map[string]any{"seconds": 42}); got != "Too many requests; try again in 42 seconds" {
		t.Errorf("got %q", got)
	}
	if got := message(Fa, "too_many", map[string]any{"seconds": 42}); !strings.Contains(got, "۴۲") {
		t.Errorf("fa digits: got %q", got)
	}
	if got := message(Fa, "bad_transition", map[string]any{"from": "Pending", "to": "Blocked"}); !strings.Contains(got, "«در انتظار بررسی»") || !strings.Contains(got, "«مسدود»") {
		t.Errorf("statuses: got %q", got)
	}
	if got := message(Fa, "hours_overlap", map[string]any{"day": "saturday"}); !strings.Contains(got, "شنبه") {
		t.Errorf("day: got %q", got)
	}
	if got := message(En, "no.such.key", nil); got != "Sorry, there was a problem" {
		t.Errorf("unknown key: got %q", got)
	}
	if got := message(En, "enter", map[string]any{"des": "unlabelled_field"}); got != "Enter unlabelled_field" {
		t.Errorf("unlabelled: got %q", got)
	}
}

func TestWriteErrorHidesInternals(t *testing.T) {
	req := httptest.NewRequest("GET", "/v1/x", nil)
	req = req.WithContext(context.WithValue(req.Context(), ctxLang, En))
	rec := httptest.NewRecorder()
	writeError(rec, req, errors.New("database is locked at /secret/path"))
	if rec.Code != 500 || strings.Contains(rec.Body.String(), "secret") || !strings.Contains(rec.Body.String(), "Server-side error occurred") {
		t.Fatalf("got %d %s", rec.Code, rec.Body)
	}
}

func TestWriteErrorStatuses(t *testing.T) {
	for code, status := range statusOf {
		rec := httptest.NewRecorder()
		writeError(rec, httptest.NewRequest("GET", "/", nil), &store.Error{Code: code})
		if rec.Code != status {
			t.Errorf("%s: got %d, want %d", code, rec.Code, status)
		}
		if !strings.Contains(rec.Body.String(), `"message":"`) {
			t.Errorf("%s: no message: %s", code, rec.Body)
		}
	}
	rec := httptest.NewRecorder()
	writeError(rec, httptest.NewRequest("GET", "/", nil), store.Errorf(store.ETooMany, "too_many", map[string]any{"seconds": 30}))
	if rec.Header().Get("Retry-After") != "30" {
		t.Errorf("Retry-After: got %q", rec.Header().Get("Retry-After"))
	}
}

func TestRecover(t *testing.T) {
	h := withRecover(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { panic("boom: secret") }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/x", nil))
	if rec.Code != 500 || strings.Contains(rec.Body.String(), "secret") || !strings.Contains(rec.Body.String(), `"payload":null`) {
		t.Fatalf("got %d %s", rec.Code, rec.Body)
	}
}

func TestDecodeJSON(t *testing.T) {
	type body struct {
		Name string `json:"name"`
		Age  int    `json:"age"`
	}
	for _, tc := range []struct {
		name, in string
		want     store.Code
	}{
		{"OK", `{"name":"علی","age":3}`, ""},
		{"OKUnknownFieldIgnored", `{"name":"a","extra":1}`, ""},
		{"ErrEmpty", ``, store.EInvalid},
		{"ErrMalformed", `{"name":`, store.EInvalid},
		{"ErrWrongType", `{"age":"three"}`, store.EInvalid},
		{"ErrInvalidUTF8", "{\"name\":\"\xff\xfe\"}", store.EInvalid},
		{"ErrTooLarge", `{"name":"` + strings.Repeat("a", maxJSONBody) + `"}`, store.ETooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			var b body
			err := decodeJSON(rec, httptest.NewRequest("POST", "/", strings.NewReader(tc.in)), &b)
			if tc.want == "" && err != nil {
				t.Fatalf("got %v", err)
			}
			if tc.want != "" && store.ErrorCode(err) != tc.want {
				t.Fatalf("got %v, want %s", err, tc.want)
			}
		})
	}
}

func TestParseCIDRs(t *testing.T) {
	nets, err := ParseCIDRs([]string{"10.0.0.0/8", " 127.0.0.1 ", "", "::1"})
	if err != nil || len(nets) != 3 {
		t.Fatalf("got %v %v", nets, err)
	}
	if _, err := ParseCIDRs([]string{"not-a-network"}); err == nil {
		t.Fatal("a bad network was accepted")
	}
	s := &Server{proxies: nets}
	req := httptest.NewRequest("GET", "/", nil)
	req.RemoteAddr = "127.0.0.1:5555"
	req.Header.Set("X-Forwarded-For", "6.6.6.6, 5.5.5.5")
	if got := s.clientIP(req); got != "5.5.5.5" {
		t.Errorf("behind a trusted proxy: got %s", got)
	}
	req.RemoteAddr = "8.8.8.8:5555"
	if got := s.clientIP(req); got != "8.8.8.8" {
		t.Errorf("untrusted peer: got %s", got)
	}
}

// A request its client abandoned is not a server error: no error is logged, and the status is
// the 499 proxies use. A cancellation the client did not cause is still an internal error.
func TestAbandonedRequestIsNotAnError(t *testing.T) {
	var logs strings.Builder
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo})))

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest(http.MethodPost, "/v1/user-technical/searchUser", nil).WithContext(ctx)
	rec := httptest.NewRecorder()
	writeError(rec, req, fmt.Errorf("search profiles: %w", context.Canceled))
	if rec.Code != statusClientClosed || strings.Contains(logs.String(), "level=ERROR") {
		t.Fatalf("abandoned: status %d, logs %q", rec.Code, logs.String())
	}

	req = httptest.NewRequest(http.MethodPost, "/v1/user-technical/searchUser", nil)
	rec = httptest.NewRecorder()
	writeError(rec, req, fmt.Errorf("search profiles: %w", context.Canceled))
	if rec.Code != http.StatusInternalServerError || !strings.Contains(logs.String(), "level=ERROR") {
		t.Fatalf("not abandoned: status %d, logs %q", rec.Code, logs.String())
	}
}
