package store

import (
	"sort"
	"strings"
	"time"
)

// SpecialDay is an exception to the week on one date: closed (Nowruz, a family event), round
// the clock, or other hours.
type SpecialDay struct {
	Date     string `json:"date"` // Gregorian, "2026-03-21"
	Closed   bool   `json:"closed"`
	Boarding bool   `json:"boarding"`
	Time     []Slot `json:"time"`
	Note     string `json:"note"`
}

// Special days' bounds.
const (
	maxSpecialDays   = 60
	maxSpecialNote   = 100
	specialDaysField = "special_days"
)

// checkSpecialDays validates the special days, recording what is wrong in v, and answers them
// cleaned and sorted by date. A date must be a real one within a year before and two after now.
func checkSpecialDays(v *Validation, in []SpecialDay, now time.Time) []SpecialDay {
	out := make([]SpecialDay, 0, len(in))
	if len(in) > maxSpecialDays {
		v.Add(specialDaysField, "too_many_items", map[string]any{"max": maxSpecialDays})
		return out
	}
	seen := map[string]bool{}
	for _, d := range in {
		t, err := time.Parse(dateLayout, strings.TrimSpace(d.Date))
		if err != nil || t.Before(now.AddDate(-1, 0, 0)) || t.After(now.AddDate(2, 0, 0)) {
			v.Add(specialDaysField, "special_day_bad_date", map[string]any{"date": d.Date})
			return out
		}
		d.Date = t.Format(dateLayout)
		if seen[d.Date] {
			v.Add(specialDaysField, "special_day_twice", map[string]any{"date": d.Date})
			return out
		}
		seen[d.Date] = true
		d.Note = CleanText(d.Note, false)
		if RuneLen(d.Note) > maxSpecialNote {
			v.Add(specialDaysField, "too_long", map[string]any{"max": maxSpecialNote})
			return out
		}
		day := DayHours{Boarding: d.Boarding, Closed: d.Closed, Time: d.Time}
		if !day.validate(v, specialDaysField, d.Date) {
			return out
		}
		d.Time = day.Time
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Date < out[j].Date })
	return out
}

// Schedule is when a business is open: its week, its special days, and whether it opens on
// Iran's official holidays (Holiday). It is only read; Week may be shared with other profiles.
type Schedule struct {
	Week           Hours
	Special        []SpecialDay
	OpenOnHolidays bool
}

// Schedule answers p's schedule.
func (p *Profile) Schedule() Schedule {
	return Schedule{Week: p.HoursOfWork, Special: p.SpecialDays, OpenOnHolidays: p.OpenOnHolidays}
}

// Day answers the hours of the date of t (in t's location): its special day, closed on an
// official holiday (unless the business opens on holidays), or the day of its week.
func (s Schedule) Day(t time.Time) DayHours {
	if len(s.Special) > 0 {
		date := t.Format(dateLayout)
		for _, d := range s.Special {
			if d.Date == date {
				return DayHours{Boarding: d.Boarding, Closed: d.Closed, Time: d.Time}
			}
		}
	}
	if !s.OpenOnHolidays && isHoliday(t) {
		return DayHours{Closed: true}
	}
	return s.Week[weekdayKeys[t.Weekday()]]
}

// weekdayKeys are the keys of hours_of_work by time.Weekday.
var weekdayKeys = [7]string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// Change is the next change of a schedule's open status: when, and the status from then on.
type Change struct {
	At     time.Time `json:"at"`
	Status string    `json:"status"`
}

// scheduleHorizon is how many days ahead Status looks for the next change.
const scheduleHorizon = 8

// Status answers the open status at t (in the operator's time zone) and its next change within
// scheduleHorizon days (nil when it stays). A day round the clock is Boarding; a time is Open
// from a slot's opening up to, not including, its closing; slots that meet across midnight (one
// day until 24:00, the next from 00:00) are one opening, so a shop open until 02:00 is open at
// 01:00 and "closes at 02:00" at 23:00.
func (s Schedule) Status(t time.Time) (string, *Change) {
	// Spans are in Unix seconds: every answer asks this of each of its profiles not seen since
	// the last change, and time.Time arithmetic and a growing slice made it 2.5 µs a profile
	// (a tenth of a map answer). Slots are whole seconds, so comparing with t's whole second is
	// comparing with t.
	type span struct {
		from, to int64
		boarding bool
	}
	var buf [32]span
	spans := buf[:0]
	y, m, d := t.Date()
	loc := t.Location()
	// starts[i+1] is the start of day i (i = -1 … scheduleHorizon+1), so a day ends where the
	// next starts, whatever the clocks did in between.
	var starts [scheduleHorizon + 3]int64
	var dates [scheduleHorizon + 3]time.Time
	for i := range starts {
		dates[i] = time.Date(y, m, d+i-1, 0, 0, 0, 0, loc)
		starts[i] = dates[i].Unix()
	}
	var today DayHours
	for i := -1; i <= scheduleHorizon; i++ {
		start := starts[i+1]
		day := s.Day(dates[i+1])
		if i == 0 {
			today = day
		}
		switch {
		case day.Boarding:
			spans = append(spans, span{start, starts[i+2], true})
		case day.Closed:
		default:
			for _, sl := range day.Time {
				from, to := start+int64(sl.Open), start+int64(sl.Close)
				if n := len(spans); n > 0 && spans[n-1].to >= from && !spans[n-1].boarding {
					if to > spans[n-1].to {
						spans[n-1].to = to
					}
					continue
				}
				spans = append(spans, span{from, to, false})
			}
		}
	}
	// Boarding days that meet are one span too, for the next change.
	merged := spans[:0]
	for _, sp := range spans {
		if n := len(merged); n > 0 && merged[n-1].to >= sp.from {
			if sp.to > merged[n-1].to {
				merged[n-1].to = sp.to
			}
			merged[n-1].boarding = merged[n-1].boarding && sp.boarding
			continue
		}
		merged = append(merged, sp)
	}
	now, horizon := t.Unix(), starts[scheduleHorizon+1]
	for _, sp := range merged {
		if sp.to > now && sp.from <= now {
			status := StatusOpen
			if today.Boarding {
				status = StatusBoarding
			}
			if sp.to >= horizon {
				return status, nil
			}
			return status, &Change{At: time.Unix(sp.to, 0).In(loc), Status: StatusClosed}
		}
		if sp.from > now {
			return StatusClosed, &Change{At: time.Unix(sp.from, 0).In(loc), Status: StatusOpen}
		}
	}
	return StatusClosed, nil
}

// Moment is a time as OpenAt reads it, worked out once for many schedules.
type Moment struct {
	date    string
	holiday bool
	weekday string
	sec     int
}

// MomentOf answers the moment of t (in t's location).
func MomentOf(t time.Time) Moment {
	return Moment{date: t.Format(dateLayout), holiday: isHoliday(t), weekday: weekdayKeys[t.Weekday()],
		sec: t.Hour()*3600 + t.Minute()*60 + t.Second()}
}

// OpenAt reports whether the schedule is open (or round the clock) at m: the day's own slots
// decide, as slots never cross midnight.
func (s Schedule) OpenAt(m Moment) bool {
	day, ok := DayHours{}, false
	for _, d := range s.Special {
		if d.Date == m.date {
			day, ok = DayHours{Boarding: d.Boarding, Closed: d.Closed, Time: d.Time}, true
			break
		}
	}
	if !ok {
		if m.holiday && !s.OpenOnHolidays {
			return false
		}
		day = s.Week[m.weekday]
	}
	if day.Boarding {
		return true
	}
	if day.Closed {
		return false
	}
	for _, sl := range day.Time {
		if sl.Open <= m.sec && m.sec < sl.Close {
			return true
		}
	}
	return false
}
