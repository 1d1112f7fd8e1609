package store

import (
	"encoding/json"
	"testing"
	"time"
)

// FuzzHours feeds working hours as a client would send them (JSON) to the validator and checks
// that whatever it accepts keeps every rule of DESIGN.md: weekday keys, whole-minute times
// within the day, open before close, sorted slots that do not overlap, at most maxSlots a day,
// never both round the clock and closed; and that accepted hours give an opening status.
func FuzzHours(f *testing.F) {
	for _, s := range []string{
		`{"saturday":{"boarding":false,"closed":false,"time":[{"open":28800,"close":61200}]}}`,
		`{"friday":{"closed":true}}`,
		`{"monday":{"boarding":true}}`,
		`{"monday":{"boarding":true,"closed":true}}`,
		`{"sunday":{"time":[{"open":61200,"close":72000},{"open":28800,"close":43200}]}}`,
		`{"sunday":{"time":[{"open":28800,"close":43200},{"open":36000,"close":50400}]}}`,
		`{"tuesday":{"time":[{"open":28801,"close":61200}]}}`,
		`{"tuesday":{"time":[{"open":29400,"close":61260}]}}`,
		`{"tuesday":{"time":[{"open":-900,"close":900}]}}`,
		`{"tuesday":{"time":[{"open":0,"close":86400}]}}`,
		`{"tuesday":{"time":[{"open":0,"close":87300}]}}`,
		`{"wednesday":{"time":[{"open":900,"close":900}]}}`,
		`{"Saturday":{}}`,
		`{"holiday":{}}`,
		`{"thursday":{"time":[{"open":0,"close":900},{"open":900,"close":1800},{"open":1800,"close":2700},{"open":2700,"close":3600},{"open":3600,"close":4500},{"open":4500,"close":5400},{"open":5400,"close":6300}]}}`,
		`{"thursday":{"time":[{"open":9223372036854775807,"close":-9223372036854775808}]}}`,
		`{}`,
	} {
		f.Add([]byte(s), int64(1700000000))
	}
	f.Fuzz(func(t *testing.T, raw []byte, at int64) {
		var h Hours
		if err := json.Unmarshal(raw, &h); err != nil {
			return
		}
		v := &Validation{}
		h.validate(v)
		if v.Err() != nil {
			return
		}
		for day, d := range h {
			if !isWeekday(day) {
				t.Fatalf("accepted day %q", day)
			}
			if d.Boarding && d.Closed {
				t.Fatalf("%s: accepted boarding and closed together", day)
			}
			if len(d.Time) > maxSlots {
				t.Fatalf("%s: accepted %d slots", day, len(d.Time))
			}
			if d.Time == nil {
				t.Fatalf("%s: time is null, the client expects a list", day)
			}
			for i, s := range d.Time {
				if s.Open < 0 || s.Close > dayEnd || s.Open%slotStep != 0 || s.Close%slotStep != 0 || s.Open >= s.Close {
					t.Fatalf("%s: accepted slot %+v", day, s)
				}
				if i > 0 && s.Open < d.Time[i-1].Close {
					t.Fatalf("%s: accepted overlapping or unsorted slots %+v", day, d.Time)
				}
			}
		}
		// Accepted hours are accepted again unchanged: what is stored validates when edited.
		again := &Validation{}
		h.validate(again)
		if again.Err() != nil {
			t.Fatalf("accepted hours fail a second validation: %v", again.Err())
		}
		switch st := h.OpenStatus(time.Unix(at%(1<<40), 0).UTC()); st {
		case StatusOpen, StatusClosed, StatusBoarding:
		default:
			t.Fatalf("open status %q", st)
		}
	})
}
