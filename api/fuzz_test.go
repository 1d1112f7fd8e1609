package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"kardan/api"
	"kardan/store/storetest"
)

// FuzzSearchUser posts arbitrary bodies to the two public search routes of a real server (real
// SQLite, real index with demo profiles) and checks the contract: never a 5xx, always the
// envelope, a 4xx always says why, and a 200 is a page of at most take profiles with a count
// that covers them.
func FuzzSearchUser(f *testing.F) {
	st := storetest.Seeded(f)
	storetest.Demo(f, st, 60, 3)
	ix := storetest.Index(f, st)
	srv, err := api.New(api.Config{Search: ix}, st)
	if err != nil {
		f.Fatal(err)
	}

	for _, body := range []string{
		`{}`, `{"search_txt":"لوله کش","city_slag":"tehran"}`, `{"lat":35.7,"long":51.4,"radius":5000,"order":"nearest"}`,
		`{"take":100,"skip":0,"order":"best"}`, `{"take":-1}`, `{"take":1e309}`, `{"skip":9007199254740993}`,
		`{"lat":91,"long":0}`, `{"lat":35}`, `{"radius":-5}`, `{"min_score":"5"}`, `{"minLevel_score":6}`,
		`{"category_slag":"plumbing","province_id":8}`, `{"city_slag":"' OR 1=1 --"}`, `{"search_txt":"<script>alert(1)</script>"}`,
		`{"search_txt":"` + strings.Repeat("ب", 300) + `"}`, `{"order":"random"}`, `[]`, `null`, `"x"`, `{"take":`, "\xff\xfe",
		`{"search_txt":"a\u202eb\u200cc"}`, `{"slug":"x"}`, `{"slug":""}`, `{"slug":123}`,
	} {
		f.Add(body, false)
		f.Add(body, true)
	}
	f.Fuzz(func(t *testing.T, body string, slag bool) {
		path := "/v1/user-technical/searchUser"
		if slag {
			path = "/v1/user-technical/searchUserSlag"
		}
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept-Language", "en")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %q: status %d: %s", path, body, rec.Code, rec.Body)
		}
		var env struct {
			Payload json.RawMessage `json:"payload"`
			Message json.RawMessage `json:"message"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.Message == nil {
			t.Fatalf("%s %q: not the envelope: %s", path, body, rec.Body)
		}
		if rec.Code >= 400 {
			if string(env.Message) == `""` {
				t.Fatalf("%s %q: %d without a message", path, body, rec.Code)
			}
			return
		}
		if slag {
			return
		}
		var page struct {
			Count    *int              `json:"count"`
			Profiles []json.RawMessage `json:"profiles"`
		}
		if err := json.Unmarshal(env.Payload, &page); err != nil || page.Count == nil || page.Profiles == nil {
			t.Fatalf("%s %q: 200 without profiles and count: %s", path, body, env.Payload)
		}
		if len(page.Profiles) > 100 || *page.Count < len(page.Profiles) {
			t.Fatalf("%s %q: %d profiles, count %d", path, body, len(page.Profiles), *page.Count)
		}
	})
}
