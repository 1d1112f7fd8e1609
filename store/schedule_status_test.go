package store

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestHolidayBitsAsHoliday compares isHoliday with Holiday on every day the bits hold, at the
// day's first and last minute in Tehran, and on days before and after them.
func TestHolidayBitsAsHoliday(t *testing.T) {
	tehran, err := time.LoadLocation("Asia/Tehran")
	if err != nil {
		t.Fatal(err)
	}
	holidays := 0
	for day := time.Date(holidayFirstYear-1, 12, 1, 0, 0, 0, 0, tehran); day.Year() <= holidayLastYear+1; day = day.AddDate(0, 0, 1) {
		for _, at := range []time.Time{day, day.Add(24*time.Hour - time.Minute)} {
			want := Holiday(at) != ""
			if got := isHoliday(at); got != want {
				t.Fatalf("%s: isHoliday %v, Holiday %q", at, got, Holiday(at))
			}
			if want {
				holidays++
			}
		}
	}
	// Eleven solar holidays a year over a century, and the lunar table's years.
	if holidays < 2*11*100 {
		t.Fatalf("only %d holidays seen: the range is not covered", holidays/2)
	}
}

// TestStatusAsPlain compares Status with statusPlain, the time.Time way it was written first,
// on random weeks, special days and holidays, at random moments (to the nanosecond) around
// Nowruz and around lunar holidays, in Tehran and in a zone that changes its clocks.
func TestStatusAsPlain(t *testing.T) {
	tehran, err := time.LoadLocation("Asia/Tehran")
	if err != nil {
		t.Fatal(err)
	}
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(25, 17))
	slots := func() []Slot {
		var out []Slot
		at := rng.IntN(6) * 3 * 3600
		for at < 24*3600 && rng.IntN(3) > 0 {
			end := min(at+(1+rng.IntN(12))*1800, 24*3600)
			out = append(out, Slot{at, end})
			at = end + rng.IntN(4)*1800
		}
		return out
	}
	day := func() DayHours {
		switch rng.IntN(6) {
		case 0:
			return DayHours{Boarding: true}
		case 1:
			return DayHours{Closed: true}
		}
		return DayHours{Time: slots()}
	}
	around := []time.Time{
		time.Date(2026, 3, 20, 0, 0, 0, 0, tehran),  // Nowruz
		time.Date(2026, 12, 6, 0, 0, 0, 0, tehran),  // today
		time.Date(2027, 3, 28, 0, 0, 0, 0, berlin),  // clocks forward
		time.Date(2026, 10, 25, 0, 0, 0, 0, berlin), // clocks back
		time.Date(2021, 3, 20, 0, 0, 0, 0, tehran),  // Tehran's last clocks forward, at midnight
		time.Date(2021, 9, 20, 0, 0, 0, 0, tehran),  // and back
	}
	for _, d := range lunarHolidaysSample(4) {
		around = append(around, d.In(tehran))
	}
	for range 400 {
		s := Schedule{Week: Hours{}, OpenOnHolidays: rng.IntN(3) == 0}
		for _, wd := range Weekdays {
			if rng.IntN(8) > 0 {
				s.Week[wd] = day()
			}
		}
		base := around[rng.IntN(len(around))]
		for range rng.IntN(3) {
			d := day()
			s.Special = append(s.Special, SpecialDay{Date: base.AddDate(0, 0, rng.IntN(9)-1).Format(dateLayout),
				Boarding: d.Boarding, Closed: d.Closed, Time: d.Time})
		}
		for range 40 {
			at := base.Add(time.Duration(rng.Int64N(int64(4 * 24 * time.Hour))))
			if rng.IntN(2) == 0 {
				at = at.Truncate(30 * time.Minute) // on a slot's edge
			}
			got, gotNext := s.Status(at)
			want, wantNext := statusPlain(s, at)
			same := got == want && (gotNext == nil) == (wantNext == nil)
			if same && gotNext != nil {
				same = gotNext.At.Equal(wantNext.At) && gotNext.Status == wantNext.Status &&
					gotNext.At.Location() == wantNext.At.Location()
			}
			if !same {
				t.Fatalf("%+v at %s: %s %+v, plain %s %+v", s, at, got, gotNext, want, wantNext)
			}
		}
	}
}

// lunarHolidaysSample answers n lunar holidays' dates.
func lunarHolidaysSample(n int) []time.Time {
	var out []time.Time
	for key := range lunarHolidays {
		out = append(out, time.Date(key/10000, time.Month(key/100%100), key%100, 0, 0, 0, 0, time.UTC))
		if len(out) == n {
			break
		}
	}
	return out
}

// statusPlain is Status as first written, with time.Time spans (and one fix, below).
func statusPlain(s Schedule, t time.Time) (string, *Change) {
	type span struct {
		from, to time.Time
		boarding bool
	}
	var spans []span
	y, m, d := t.Date()
	for i := -1; i <= scheduleHorizon; i++ {
		start := time.Date(y, m, d+i, 0, 0, 0, 0, t.Location())
		day := s.Day(start)
		switch {
		case day.Boarding:
			// The next day's start: the first version wrote start.AddDate(0, 0, 1), which after
			// a midnight that did not exist (Tehran's clocks went forward at 00:00 until 2022)
			// is 01:00 of the next day, and kept the day open an hour too long.
			spans = append(spans, span{start, time.Date(y, m, d+i+1, 0, 0, 0, 0, t.Location()), true})
		case day.Closed:
		default:
			for _, sl := range day.Time {
				from := start.Add(time.Duration(sl.Open) * time.Second)
				to := start.Add(time.Duration(sl.Close) * time.Second)
				if n := len(spans); n > 0 && !spans[n-1].to.Before(from) && !spans[n-1].boarding {
					if to.After(spans[n-1].to) {
						spans[n-1].to = to
					}
					continue
				}
				spans = append(spans, span{from, to, false})
			}
		}
	}
	merged := spans[:0]
	for _, sp := range spans {
		if n := len(merged); n > 0 && !merged[n-1].to.Before(sp.from) {
			if sp.to.After(merged[n-1].to) {
				merged[n-1].to = sp.to
			}
			merged[n-1].boarding = merged[n-1].boarding && sp.boarding
			continue
		}
		merged = append(merged, sp)
	}
	horizon := time.Date(y, m, d+scheduleHorizon, 0, 0, 0, 0, t.Location())
	today := s.Day(t)
	for _, sp := range merged {
		if sp.to.After(t) && !sp.from.After(t) {
			status := StatusOpen
			if today.Boarding {
				status = StatusBoarding
			}
			if !sp.to.Before(horizon) {
				return status, nil
			}
			return status, &Change{At: sp.to, Status: StatusClosed}
		}
		if sp.from.After(t) {
			return StatusClosed, &Change{At: sp.from, Status: StatusOpen}
		}
	}
	return StatusClosed, nil
}

// BenchmarkScheduleStatus is one open status of a six-day week with a split day.
func BenchmarkScheduleStatus(b *testing.B) {
	tehran, err := time.LoadLocation("Asia/Tehran")
	if err != nil {
		b.Fatal(err)
	}
	h := func(open, close int) DayHours { return DayHours{Time: []Slot{{open * 3600, close * 3600}}} }
	s := Schedule{Week: Hours{"saturday": h(9, 17), "sunday": h(9, 17), "monday": h(9, 17), "tuesday": h(9, 17),
		"wednesday": {Time: []Slot{{9 * 3600, 13 * 3600}, {16 * 3600, 20 * 3600}}}, "thursday": h(9, 13)}}
	at := time.Date(2026, 12, 6, 18, 30, 0, 0, tehran)
	b.ReportAllocs()
	for b.Loop() {
		s.Status(at)
	}
}
