package store

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestJalali(t *testing.T) {
	for _, c := range []struct{ gy, gm, gd, jy, jm, jd int }{
		{2025, 3, 21, 1404, 1, 1}, {2026, 3, 20, 1404, 12, 29}, {2026, 3, 21, 1405, 1, 1},
		{2025, 2, 10, 1403, 11, 22}, {2024, 3, 20, 1403, 1, 1}, {2025, 3, 20, 1403, 12, 30},
		{2026, 11, 25, 1405, 9, 4}, {2031, 3, 21, 1410, 1, 1}, {2025, 9, 22, 1403 + 1, 6, 31},
	} {
		jy, jm, jd := Jalali(c.gy, c.gm, c.gd)
		if jy != c.jy || jm != c.jm || jd != c.jd {
			t.Errorf("%d-%d-%d: %d-%d-%d, want %d-%d-%d", c.gy, c.gm, c.gd, jy, jm, jd, c.jy, c.jm, c.jd)
		}
	}
}

func TestHolidays(t *testing.T) {
	tehran, _ := time.LoadLocation("Asia/Tehran")
	at := func(s string) time.Time {
		d, err := time.ParseInLocation("2006-01-02 15:04", s, tehran)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for date, want := range map[string]bool{
		"2025-03-21 10:00": true,  // 1 Farvardin 1404: Nowruz
		"2025-04-02 10:00": true,  // 13 Farvardin: Nature Day
		"2025-04-03 10:00": false, // 14 Farvardin
		"2026-02-11 10:00": true,  // 22 Bahman 1404
		"2025-07-06 10:00": true,  // Ashura 1447, from the lunar table
		"2025-07-07 10:00": false,
		"2031-03-21 10:00": true, // Nowruz 1410
	} {
		if got := Holiday(at(date)) != ""; got != want {
			t.Errorf("%s: holiday %v, want %v", date, got, want)
		}
	}
	// The lunar table covers every solar year from 1404 to 1410.
	for jy := 1404; jy <= 1410; jy++ {
		n := 0
		for d := range lunarHolidays {
			if y, _, _ := Jalali(d/10000, d/100%100, d%100); y == jy {
				n++
			}
		}
		if n < 15 {
			t.Errorf("solar year %d: %d lunar holidays, want the whole year's", jy, n)
		}
	}
}

// TestHolidayMatchesTheTable: the holiday of every day of ten years, in two time zones, is the
// table's entry for its date as written in the JSON (the lookup by number against the plain
// lookup by text), or the solar rule's.
func TestHolidayMatchesTheTable(t *testing.T) {
	var doc struct {
		Days []struct{ Date, En string }
	}
	if err := json.Unmarshal(lunarHolidaysJSON, &doc); err != nil {
		t.Fatal(err)
	}
	byText := map[string]string{}
	for _, d := range doc.Days {
		byText[d.Date] = d.En
	}
	tehran, _ := time.LoadLocation("Asia/Tehran")
	found := 0
	for _, loc := range []*time.Location{tehran, time.UTC} {
		for day := time.Date(2024, 1, 1, 23, 30, 0, 0, loc); day.Year() < 2034; day = day.AddDate(0, 0, 1) {
			_, jm, jd := Jalali(day.Year(), int(day.Month()), day.Day())
			want, ok := solarHolidays[jm*100+jd]
			if !ok {
				want = byText[day.Format(dateLayout)]
			}
			if got := Holiday(day); got != want {
				t.Fatalf("%s: %q, want %q", day.Format(time.RFC3339), got, want)
			}
			if want != "" && !ok {
				found++
			}
		}
	}
	if found < len(doc.Days) {
		t.Fatalf("%d lunar holidays met over both zones, want at least the table's %d", found, len(doc.Days))
	}
}

// TestLunarHolidaysKeepTheirMonth: the days of one Hijri month run on one after another, so two
// entries of the same month are as many days apart as their Hijri days. A tabular date in a month
// whose start the official calendar fixed must follow that start (25 Shawwal 1447 was written a
// day before the official 1 Shawwal + 24).
func TestLunarHolidaysKeepTheirMonth(t *testing.T) {
	var doc struct {
		Days []struct{ Date, Hijri, En, Source string }
	}
	if err := json.Unmarshal(lunarHolidaysJSON, &doc); err != nil {
		t.Fatal(err)
	}
	type start struct {
		at   time.Time
		from string
	}
	months := map[string]start{}
	for _, d := range doc.Days {
		g, err := time.Parse(dateLayout, d.Date)
		if err != nil {
			t.Fatal(err)
		}
		var hy, hm, hd int
		if _, err := fmt.Sscanf(d.Hijri, "%d-%d-%d", &hy, &hm, &hd); err != nil || hm < 1 || hm > 12 || hd < 1 || hd > 30 {
			t.Fatalf("%s: hijri %q is not a date", d.Date, d.Hijri)
		}
		if d.Source != "official" && d.Source != "tabular" {
			t.Errorf("%s: source %q, want official or tabular", d.Date, d.Source)
		}
		key := fmt.Sprintf("%d-%02d", hy, hm)
		first := g.AddDate(0, 0, 1-hd) // the month's first day, as this entry puts it
		if hd == 30 {
			// "30" is the month's last day (Imam Reza's, the end of Safar), the 29th when the
			// month has 29 days: it fits either start and fixes none.
			if s, ok := months[key]; ok && !s.at.Equal(first) && !s.at.Equal(first.AddDate(0, 0, 1)) {
				t.Errorf("%s (%s, %s): not the last day of Hijri month %s, which %s starts on %s", d.Date, d.En, d.Hijri, key, s.from, s.at.Format(dateLayout))
			}
			continue
		}
		if s, ok := months[key]; ok && !s.at.Equal(first) {
			t.Errorf("%s (%s, %s) starts Hijri month %s on %s; %s starts it on %s", d.Date, d.En, d.Hijri, key, first.Format(dateLayout), s.from, s.at.Format(dateLayout))
			continue
		}
		months[key] = start{first, d.Date}
	}
}

// TestScheduleBoundaries: open status and next change at midnight, across it, on Friday, on a
// holiday, on a special day, and round the clock.
func TestScheduleBoundaries(t *testing.T) {
	tehran, _ := time.LoadLocation("Asia/Tehran")
	at := func(s string) time.Time {
		d, err := time.ParseInLocation("2006-01-02 15:04", s, tehran)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	h := func(open, close int) DayHours { return DayHours{Time: []Slot{{open * 3600, close * 3600}}} }
	// 2026-11-21 is a Saturday. Thursday's slots run to midnight and on from Friday's midnight.
	week := Hours{
		"saturday": h(9, 17), "sunday": h(9, 17), "monday": h(9, 17), "tuesday": {Boarding: true},
		"wednesday": {Time: []Slot{{9 * 3600, 13 * 3600}, {16 * 3600, 20*3600 + 1800}}},
		"thursday":  h(18, 24), "friday": h(0, 2),
	}
	s := Schedule{Week: week}
	cases := []struct {
		at, status, next, nextStatus string
	}{
		{"2026-11-21 08:59", StatusClosed, "2026-11-21 09:00", StatusOpen},
		{"2026-11-21 09:00", StatusOpen, "2026-11-21 17:00", StatusClosed},
		{"2026-11-21 17:00", StatusClosed, "2026-11-22 09:00", StatusOpen},
		{"2026-11-24 12:00", StatusBoarding, "2026-11-25 00:00", StatusClosed}, // Tuesday round the clock
		{"2026-11-25 00:00", StatusClosed, "2026-11-25 09:00", StatusOpen},
		{"2026-11-25 14:00", StatusClosed, "2026-11-25 16:00", StatusOpen},
		{"2026-11-25 20:00", StatusOpen, "2026-11-25 20:30", StatusClosed},
		{"2026-11-26 23:00", StatusOpen, "2026-11-27 02:00", StatusClosed}, // Thursday into Friday
		{"2026-11-27 00:00", StatusOpen, "2026-11-27 02:00", StatusClosed}, // Friday midnight
		{"2026-11-27 01:59", StatusOpen, "2026-11-27 02:00", StatusClosed},
		{"2026-11-27 02:00", StatusClosed, "2026-11-28 09:00", StatusOpen}, // Friday afternoon: Saturday
	}
	for _, c := range cases {
		st, next := s.Status(at(c.at))
		if st != c.status || next == nil || !next.At.Equal(at(c.next)) || next.Status != c.nextStatus {
			t.Errorf("%s: %s %+v, want %s then %s at %s", c.at, st, next, c.status, c.nextStatus, c.next)
		}
		if open := s.OpenAt(MomentOf(at(c.at))); open != (c.status != StatusClosed) {
			t.Errorf("%s: OpenAt %v, want %v", c.at, open, c.status != StatusClosed)
		}
	}
	// A holiday: 13 Farvardin 1405 (2026-04-02, a Thursday) is closed, unless the business opens
	// on holidays; a special day overrides both.
	if st, next := s.Status(at("2026-04-02 19:00")); st != StatusClosed || next == nil || !next.At.Equal(at("2026-04-03 00:00")) {
		t.Errorf("holiday: %s %+v", st, next)
	}
	s.OpenOnHolidays = true
	if st, _ := s.Status(at("2026-04-02 19:00")); st != StatusOpen {
		t.Errorf("open on holidays: %s", st)
	}
	s.Special = []SpecialDay{{Date: "2026-04-02", Closed: true}, {Date: "2026-11-23", Time: []Slot{{10 * 3600, 12 * 3600}}}}
	if st, _ := s.Status(at("2026-04-02 19:00")); st != StatusClosed {
		t.Errorf("special closed day: %s", st)
	}
	if st, next := s.Status(at("2026-11-23 09:30")); st != StatusClosed || !next.At.Equal(at("2026-11-23 10:00")) {
		t.Errorf("special hours: %s %+v", st, next)
	}
	if !s.OpenAt(MomentOf(at("2026-11-23 11:00"))) || s.OpenAt(MomentOf(at("2026-11-23 16:00"))) {
		t.Errorf("special hours: OpenAt wrong")
	}
	// Never open: no next change.
	if st, next := (Schedule{Week: Hours{}}).Status(at("2026-11-23 09:30")); st != StatusClosed || next != nil {
		t.Errorf("never open: %s %+v", st, next)
	}
	// Always open: no next change within the horizon.
	all := Hours{}
	for _, d := range Weekdays {
		all[d] = DayHours{Boarding: true}
	}
	if st, next := (Schedule{Week: all, OpenOnHolidays: true}).Status(at("2026-11-23 09:30")); st != StatusBoarding || next != nil {
		t.Errorf("always open: %s %+v", st, next)
	}
}

func TestCheckSpecialDays(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	ok := []SpecialDay{{Date: "2027-03-21", Closed: true, Note: " نوروز "}, {Date: "2026-12-01", Time: []Slot{{36000, 43200}}}}
	v := &Validation{}
	got := checkSpecialDays(v, ok, now)
	if v.Err() != nil || len(got) != 2 || got[0].Date != "2026-12-01" || got[1].Note != "نوروز" {
		t.Fatalf("valid days: %+v %v", got, v.Err())
	}
	for name, bad := range map[string][]SpecialDay{
		"bad date":   {{Date: "1404-01-01"}},
		"not a date": {{Date: "2026-02-30"}},
		"far ahead":  {{Date: "2030-01-01"}},
		"twice":      {{Date: "2026-12-01", Closed: true}, {Date: "2026-12-01"}},
		"both":       {{Date: "2026-12-01", Closed: true, Boarding: true}},
		"irregular":  {{Date: "2026-12-01", Time: []Slot{{100, 3600}}}},
		"backwards":  {{Date: "2026-12-01", Time: []Slot{{7200, 3600}}}},
		"overlap":    {{Date: "2026-12-01", Time: []Slot{{3600, 9000}, {7200, 10800}}}},
		"long note":  {{Date: "2026-12-01", Note: strings.Repeat("ا", 101)}},
		"too many":   make([]SpecialDay, 61),
	} {
		v := &Validation{}
		checkSpecialDays(v, bad, now)
		if v.Err() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
