package store

import (
	"sort"
	"strings"
	"sync"
	"time"
)

// Weekdays are the keys of hours_of_work, in the order of the Iranian week (Saturday first).
var Weekdays = []string{"saturday", "sunday", "monday", "tuesday", "wednesday", "thursday", "friday"}

// Slot is one opening period in seconds from midnight.
type Slot struct {
	Open  int `json:"open"`
	Close int `json:"close"`
}

// DayHours is one day of a working week: round the clock (boarding), closed, or its slots.
type DayHours struct {
	Boarding bool   `json:"boarding"`
	Closed   bool   `json:"closed"`
	Time     []Slot `json:"time"`
}

// Hours is hours_of_work: a day per lowercase weekday; a missing day is closed.
type Hours map[string]DayHours

// Slot times are whole minutes within the day. The web editor offers quarter hours (SPEC.md §9),
// but the spec's data holds other values and its client may send any minute: a time like 08:10
// is a real opening time, so it is stored; only what is not a whole minute is irregular.
const (
	slotStep   = 60
	dayEnd     = 86400
	maxSlots   = 6
	hoursField = "hours_of_work"
)

// validate checks the week, recording what is wrong in v. Slots are sorted on the way.
func (h Hours) validate(v *Validation) {
	for day, d := range h {
		if !isWeekday(day) {
			v.Add(hoursField, "hours_bad_day", map[string]any{"day": day})
			return
		}
		if !d.validate(v, hoursField, day) {
			return
		}
		h[day] = d
	}
}

// validate checks one day (named day in messages) of field, recording what is wrong in v, and
// reports whether it is right. Its slots are sorted on the way.
func (d *DayHours) validate(v *Validation, field, day string) bool {
	if d.Boarding && d.Closed {
		v.Add(field, "hours_boarding_closed", map[string]any{"day": day})
		return false
	}
	if len(d.Time) > maxSlots {
		v.Add(field, "hours_too_many_slots", map[string]any{"day": day, "max": maxSlots})
		return false
	}
	sort.Slice(d.Time, func(i, j int) bool { return d.Time[i].Open < d.Time[j].Open })
	for i, s := range d.Time {
		if s.Open < 0 || s.Close > dayEnd || s.Open%slotStep != 0 || s.Close%slotStep != 0 {
			v.Add(field, "hours_irregular", map[string]any{"day": day})
			return false
		}
		if s.Open >= s.Close {
			v.Add(field, "hours_open_before_close", map[string]any{"day": day})
			return false
		}
		if i > 0 && s.Open < d.Time[i-1].Close {
			v.Add(field, "hours_overlap", map[string]any{"day": day})
			return false
		}
	}
	if d.Time == nil {
		d.Time = []Slot{}
	}
	return true
}

func isWeekday(day string) bool {
	for _, w := range Weekdays {
		if w == day {
			return true
		}
	}
	return false
}

// OpenStatus values.
const (
	StatusOpen     = "Open"
	StatusClosed   = "Closed"
	StatusBoarding = "Boarding"
)

// OpenStatus answers the spec's opening status at t (in the operator's time zone): Boarding if
// the day is round the clock, Closed if it is closed, Open if t lies strictly between an open and
// close pair, otherwise Closed.
func (h Hours) OpenStatus(t time.Time) string {
	d, ok := h[strings.ToLower(t.Weekday().String())]
	if !ok {
		return StatusClosed
	}
	if d.Boarding {
		return StatusBoarding
	}
	if d.Closed {
		return StatusClosed
	}
	sec := t.Hour()*3600 + t.Minute()*60 + t.Second()
	for _, s := range d.Time {
		if s.Open < sec && sec < s.Close {
			return StatusOpen
		}
	}
	return StatusClosed
}

// maxSharedWeeks bounds the weeks a weekCache keeps (about 1 KiB each).
const maxSharedWeeks = 1024

// weekCache shares the decoded hours of public reads by their stored text. Most businesses keep
// one of a few common weeks (the editor starts every profile from the same one), and decoding a
// week was the largest part of reading a profile for a search answer. The shared weeks are only
// read: a public read's hours go no further than open-status checks.
type weekCache struct {
	mu    sync.RWMutex
	weeks map[string]Hours
}

// hours answers the week stored as text, decoded once while it stays in the cache.
func (c *weekCache) hours(text string) (Hours, error) {
	c.mu.RLock()
	h, ok := c.weeks[text]
	c.mu.RUnlock()
	if ok {
		return h, nil
	}
	if err := jsonCompat.UnmarshalFromString(text, &h); err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.weeks == nil || len(c.weeks) >= maxSharedWeeks {
		c.weeks = make(map[string]Hours)
	}
	c.weeks[text] = h
	c.mu.Unlock()
	return h, nil
}
