package search_test

import (
	"context"
	"testing"

	"kardan/search"
	"kardan/store/storetest"
)

// TestProfileDocumentsAsMapped: the documents addProfiles indexes (the Persian text fields
// prepared by the index, docfields.go) analyse to what the mapping alone makes of the same
// profiles, field by field: demo profiles, and one whose name and text hold what lower-cases
// unusually and words longer than the longest start.
func TestProfileDocumentsAsMapped(t *testing.T) {
	f := newFixture(t)
	storetest.Demo(t, f.st, 300, 26)
	f.add("ΣΟΦΙΑΣ İstanbul Ⱥtelier KARDAN کاردان", "لولهکشیلولهکشیلولهکشی SUPER-plumber، Ünal ۲۴ ساعته\u200cها",
		1, 1, 1, 101, 35.7, 51.4)
	n, err := search.DocumentsAsMapped(context.Background(), f.ix)
	if err != nil {
		t.Fatal(err)
	}
	if n < 250 {
		t.Fatalf("%d profiles compared, want most of the 301", n)
	}
	t.Logf("%d profiles compared", n)
}
