package store

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// parseIDList reads what json_group_array writes, and says so when it reads something else.
func TestParseIDList(t *testing.T) {
	for in, want := range map[string][]int64{"[]": {}, "[7]": {7}, "[3,14,159]": {3, 14, 159}, "[ 1, 2 ]": {1, 2}} {
		got, err := parseIDList(in)
		if err != nil || !slices.Equal(got, want) || got == nil {
			t.Errorf("%q: got %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "[", "7", "[a]", "[1,,2]", "[9999999999999999999999]", "null"} {
		if got, err := parseIDList(in); err == nil {
			t.Errorf("%q: got %v and no error", in, got)
		}
	}
}

// Public reads share one decoded week per stored text, within a bound, and a bad text is an
// error rather than an empty week.
func TestWeekCache(t *testing.T) {
	var c weekCache
	text := `{"friday":{"boarding":false,"closed":true,"time":[]},"saturday":{"boarding":false,"closed":false,"time":[{"open":28800,"close":61200}]}}`
	a, err := c.hours(text)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.hours(text)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.ValueOf(a).Pointer() != reflect.ValueOf(b).Pointer() {
		t.Fatal("the same stored week was decoded twice")
	}
	if len(a) != 2 || !a["friday"].Closed || len(a["saturday"].Time) != 1 || a["saturday"].Time[0].Close != 61200 {
		t.Fatalf("decoded %+v", a)
	}
	for i := 0; i < 2*maxSharedWeeks; i++ {
		if _, err := c.hours(fmt.Sprintf(`{"monday":{"boarding":false,"closed":false,"time":[{"open":%d,"close":86400}]}}`, i*900)); err != nil {
			t.Fatal(err)
		}
		if len(c.weeks) > maxSharedWeeks {
			t.Fatalf("%d weeks kept, bound %d", len(c.weeks), maxSharedWeeks)
		}
	}
	if h, err := c.hours(`{"monday":`); err == nil {
		t.Fatalf("a broken week read as %v", h)
	}
}
