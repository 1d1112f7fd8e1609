package api

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestFirstAnswerURLs reads the addresses the app's tests read too (webui/src/lib/firstRequest.test.ts):
// for each, the request the app asks first, and whether the server answers it into the page.
// When the server answers, its body must be the app's, or the app would throw the answer away.
func TestFirstAnswerURLs(t *testing.T) {
	raw, err := os.ReadFile("testdata/first_answer_urls.json")
	if err != nil {
		t.Fatal(err)
	}
	var fixture struct {
		Cases []struct {
			URL     string `json:"url"`
			Request *struct {
				Page string          `json:"page"`
				Body json.RawMessage `json:"body"`
			} `json:"request"`
			Answered bool `json:"answered"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &fixture); err != nil {
		t.Fatal(err)
	}
	if len(fixture.Cases) < 20 {
		t.Fatalf("only %d cases", len(fixture.Cases))
	}
	for _, c := range fixture.Cases {
		t.Run(c.URL, func(t *testing.T) {
			// As the browser sends it: the path stays percent-encoded (r.URL.EscapedPath).
			path, query, _ := strings.Cut(c.URL, "?")
			profile, isProfile := firstProfileBody(path)
			search, isSearch := firstSearchBody(path, query)
			if !c.Answered {
				if isProfile || isSearch {
					t.Fatalf("answered: profile %s, search %s", profile, search)
				}
				return
			}
			if c.Request == nil {
				t.Fatal("a case the server answers needs the app's request")
			}
			got, ok := search, isSearch
			if c.Request.Page == "profile" {
				got, ok = profile, isProfile
			}
			if !ok || isProfile == isSearch {
				t.Fatalf("not answered as a %s page (profile %v, search %v)", c.Request.Page, isProfile, isSearch)
			}
			var a, b any
			if err := json.Unmarshal(got, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(c.Request.Body, &b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("the server reads %s, the app asks %s", got, c.Request.Body)
			}
		})
	}
}
