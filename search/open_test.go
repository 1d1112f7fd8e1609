package search_test

import (
	"slices"
	"testing"
	"time"

	"kardan/search"
)

// TestOpenNow: open_now keeps the profiles open at the query's moment, at the boundaries that
// matter: a slot's opening and closing minute, midnight between two days, Friday, an official
// holiday (and the switch that opens on them), and a special day; the count follows the filter.
func TestOpenNow(t *testing.T) {
	f := newFixture(t)
	tehran, _ := time.LoadLocation("Asia/Tehran")
	at := func(s string) time.Time {
		d, err := time.ParseInLocation("2006-01-02 15:04", s, tehran)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	day := func(open, close int) string {
		return `{"boarding":false,"closed":false,"time":[{"open":` + itoa(open*3600) + `,"close":` + itoa(close*3600) + `}]}`
	}
	office := `{"saturday":` + day(9, 17) + `,"sunday":` + day(9, 17) + `,"monday":` + day(9, 17) + `,"tuesday":` + day(9, 17) +
		`,"wednesday":` + day(9, 17) + `,"thursday":` + day(9, 13) + `}`
	night := `{"thursday":` + day(18, 24) + `,"friday":` + day(0, 2) + `}`
	a := f.add("دفتر اداری", "خدمات اداری", 1, 1, 1, 101, 35.7, 51.4)
	b := f.add("کافه شبانه", "قهوه شب", 1, 1, 1, 101, 35.7, 51.4)
	c := f.add("داروخانه شبانه روزی", "دارو", 1, 1, 1, 101, 35.7, 51.4)
	db := f.raw()
	set := func(id int64, hours, special string, holidays bool) {
		if _, err := db.Exec(`UPDATE profiles SET hours_of_work = ?, special_days = ?, open_on_holidays = ? WHERE id = ?`, hours, special, holidays, id); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO index_outbox (entity, entity_id, create_at) VALUES ('profile', ?, 0)`, id); err != nil {
			t.Fatal(err)
		}
	}
	all := `{"boarding":true,"closed":false,"time":[]}`
	set(a.ID, office, `[{"date":"2026-12-01","closed":true,"boarding":false,"time":[],"note":"تعطیل"}]`, false)
	set(b.ID, night, `[]`, false)
	set(c.ID, `{"saturday":`+all+`,"sunday":`+all+`,"monday":`+all+`,"tuesday":`+all+`,"wednesday":`+all+`,"thursday":`+all+`,"friday":`+all+`}`, `[]`, true)
	f.sync()
	for _, tc := range []struct {
		at   string
		want []int64
	}{
		{"2026-11-21 08:59", []int64{c.ID}},       // Saturday, before the office opens
		{"2026-11-21 09:00", []int64{a.ID, c.ID}}, // its opening minute
		{"2026-11-21 17:00", []int64{c.ID}},       // its closing minute
		{"2026-11-26 23:59", []int64{b.ID, c.ID}}, // Thursday night
		{"2026-11-27 00:00", []int64{b.ID, c.ID}}, // Friday's midnight: the night goes on
		{"2026-11-27 02:00", []int64{c.ID}},       // Friday 02:00: closed
		{"2026-12-01 10:00", []int64{c.ID}},       // a Tuesday the office marked closed
		{"2026-12-02 10:00", []int64{a.ID, c.ID}}, // the day after
		{"2027-02-11 10:00", []int64{c.ID}},       // 22 Bahman 1405, a Thursday: holiday
		{"2026-04-02 10:00", []int64{c.ID}},       // 13 Farvardin 1405
	} {
		for _, q := range []search.ProfileQuery{{OpenNow: true, Now: at(tc.at)}, {Text: "شبانه دفتر کافه داروخانه", OpenNow: true, Now: at(tc.at)}} {
			h := f.search(q)
			got := slices.Clone(h.IDs)
			slices.Sort(got)
			if !slices.Equal(got, tc.want) || h.Total != len(tc.want) {
				t.Errorf("%s (text %q): %v of %d, want %v", tc.at, q.Text, got, h.Total, tc.want)
			}
		}
	}
	// Without open_now every profile answers.
	if h := f.search(search.ProfileQuery{Now: at("2026-11-21 08:59")}); h.Total != 3 {
		t.Errorf("without open_now: %d", h.Total)
	}
}

func itoa(n int) string {
	return string(appendInt(nil, n))
}

func appendInt(b []byte, n int) []byte {
	if n >= 10 {
		b = appendInt(b, n/10)
	}
	return append(b, byte('0'+n%10))
}
