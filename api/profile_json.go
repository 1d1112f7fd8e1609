package api

// Over 500 lines on purpose: one hand-written encoder of the read form, one contract (the same bytes as encoding/json, profile_json_test.go).

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"kardan/store"
)

// Read forms are most of what the API writes: a search answers up to 100 of them. They are
// written by hand-made appenders that give exactly what encoding/json gives for the same structs
// (profile_json_test.go compares the two), at a fraction of the cost of reflection.

// writeFormList writes {"payload":{"count":total,"profiles":[...]},"message":""}, as ok would.
func writeFormList(w http.ResponseWriter, forms []*profileForm, total int) {
	writeFormListWith(w, forms, total, nil)
}

// writeFormListWith writes the list as writeFormList does, with extra (members of the payload
// already encoded, each starting with a comma) after the profiles.
func writeFormListWith(w http.ResponseWriter, forms []*profileForm, total int, extra []byte) {
	buf := jsonBufs.Get().(*[]byte)
	b := append((*buf)[:0], `{"payload":{"count":`...)
	b = strconv.AppendInt(b, int64(total), 10)
	b = append(b, `,"profiles":`...)
	if forms == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, f := range forms {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendProfileForm(b, f)
		}
		b = append(b, ']')
	}
	b = append(b, extra...)
	b = append(b, "},\"message\":\"\"}\n"...)
	writeRaw(w, b)
	putBuf(buf, b)
}

// writeForm writes one read form in the envelope, as ok would.
func writeForm(w http.ResponseWriter, f *profileForm) {
	buf := jsonBufs.Get().(*[]byte)
	b := append((*buf)[:0], `{"payload":`...)
	b = appendProfileForm(b, f)
	b = append(b, ",\"message\":\"\"}\n"...)
	writeRaw(w, b)
	putBuf(buf, b)
}

// writeRaw writes an encoded 200 answer with writeJSON's headers.
func writeRaw(w http.ResponseWriter, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	// A known length spares chunked encoding; gzip, when it applies, removes it again.
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(b); err != nil {
		slog.Debug("write answer", "err", err)
	}
}

// jsonBufs keeps answer buffers between requests; the largest (a map page of 100 forms) are a
// few hundred KiB, and a buffer that grew past 1 MiB is let go rather than kept.
var jsonBufs = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

func putBuf(buf *[]byte, b []byte) {
	if cap(b) > 1<<20 {
		return
	}
	*buf = b
	jsonBufs.Put(buf)
}

func appendProfileForm(b []byte, f *profileForm) []byte {
	b = appendProfileFormHead(b, f)
	return appendProfileFormTail(b, f.OpenStatus, f.NextChange, f.Distance)
}

// appendProfileFormHead appends a read form up to its open status, which follows the clock, and
// its distance, which follows the query: the part the form cache keeps.
func appendProfileFormHead(b []byte, f *profileForm) []byte {
	return appendProfileFormHeadSharing(b, f, nil)
}

// headSpan is where, in an encoded form, a part begins and ends.
type headSpan struct{ from, to int }

// appendProfileFormHeadSharing is appendProfileFormHead, and when shared is not nil it appends
// to it where the parts many profiles have in common are: the field and categories, the
// opening hours, and the province and city. The form cache keeps each of those once.
func appendProfileFormHeadSharing(b []byte, f *profileForm, shared *[]headSpan) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, f.ID, 10)
	b = append(b, `,"delete_at":`...)
	if f.DeleteAt == nil {
		b = append(b, "null"...)
	} else {
		b = appendString(b, *f.DeleteAt)
	}
	b = append(b, `,"active":`...)
	b = strconv.AppendBool(b, f.Active)
	b = append(b, `,"display":`...)
	b = strconv.AppendBool(b, f.Display)
	b = append(b, `,"option":`...)
	if f.stored != nil {
		b = append(b, f.stored.Option...)
	} else {
		b = appendStrings(b, f.Option)
	}
	b = append(b, `,"register_admin":{"adminRegisterId":`...)
	b = appendInt64Ptr(b, f.RegisterAdmin.AdminRegisterID)
	b = append(b, `,"description":`...)
	b = appendString(b, f.RegisterAdmin.Description)
	b = append(b, `},"user_id":{"userId":`...)
	b = strconv.AppendInt(b, f.UserID.UserID, 10)
	b = append(b, `,"name":`...)
	b = appendString(b, f.UserID.Name)
	b = append(b, `,"numberPhone":`...)
	b = appendString(b, f.UserID.NumberPhone)
	b = append(b, `,"profileImage":`...)
	b = appendString(b, f.UserID.ProfileImage)
	b = append(b, `},"range_worker":`...)
	categories := len(b)
	if f.RangeWorker == nil {
		b = append(b, "null"...)
	} else {
		b = appendCategoryRef(b, f.RangeWorker)
	}
	b = append(b, `,"category_list":`...)
	if f.CategoryList == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range f.CategoryList {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCategoryRef(b, &f.CategoryList[i])
		}
		b = append(b, ']')
	}
	if shared != nil {
		*shared = append(*shared, headSpan{categories, len(b)})
	}
	b = append(b, `,"profile_image":`...)
	b = appendString(b, f.ProfileImage)
	b = append(b, `,"profile_name":`...)
	b = appendString(b, f.ProfileName)
	b = append(b, `,"key_word":`...)
	b = appendString(b, f.KeyWord)
	b = append(b, `,"work_history_years":`...)
	b = strconv.AppendInt(b, int64(f.WorkHistoryYears), 10)
	b = append(b, `,"descriotion":`...)
	b = appendString(b, f.Descriotion)
	b = append(b, `,"level_score":`...)
	b = appendFloat(b, f.LevelScore)
	b = append(b, `,"count_scorer":`...)
	b = strconv.AppendInt(b, int64(f.CountScorer), 10)
	b = append(b, `,"score":`...)
	b = appendFloat(b, f.Score)
	b = append(b, `,"location":`...)
	if f.Location == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, v := range f.Location {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendFloat(b, v)
		}
		b = append(b, ']')
	}
	b = append(b, `,"area_working":`...)
	if f.stored != nil {
		b = append(b, f.stored.AreaWorking...)
	} else {
		b = appendStrings(b, f.AreaWorking)
	}
	b = append(b, `,"address":`...)
	b = appendString(b, f.Address)
	b = append(b, `,"account_status":`...)
	b = appendString(b, f.AccountStatus)
	b = append(b, `,"portfolio_images":`...)
	if f.stored != nil {
		b = append(b, f.stored.PortfolioImages...)
	} else {
		b = appendStrings(b, f.PortfolioImages)
	}
	b = append(b, `,"create_at":`...)
	b = appendString(b, f.CreateAt)
	b = append(b, `,"update_at":`...)
	b = appendString(b, f.UpdateAt)
	b = append(b, `,"list_object":`...)
	b = appendRaw(b, f.ListObject)
	b = append(b, `,"social_network":`...)
	if f.stored != nil {
		b = append(b, f.stored.SocialNetwork...)
	} else if f.SocialNetwork == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, l := range f.SocialNetwork {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"type":`...)
			b = appendString(b, l.Type)
			b = append(b, `,"link":`...)
			b = appendString(b, l.Link)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"services":`...)
	if f.stored != nil {
		b = append(b, f.stored.Services...)
	} else if f.Services == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, s := range f.Services {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"title":`...)
			b = appendString(b, s.Title)
			b = append(b, `,"price":`...)
			b = strconv.AppendInt(b, s.Price, 10)
			b = append(b, `,"description":`...)
			b = appendString(b, s.Description)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"hours_of_work":`...)
	hours := len(b)
	if f.stored != nil {
		b = append(b, f.stored.HoursOfWork...)
	} else {
		b = appendHours(b, f.HoursOfWork)
	}
	if shared != nil {
		*shared = append(*shared, headSpan{hours, len(b)})
	}
	b = append(b, `,"logo":`...)
	b = appendString(b, f.Logo)
	b = append(b, `,"slug":`...)
	b = appendString(b, f.Slug)
	b = append(b, `,"province":`...)
	place := len(b)
	b = appendProvinceRef(b, f.Province)
	b = append(b, `,"city":`...)
	b = appendCityRef(b, f.City)
	if shared != nil {
		*shared = append(*shared, headSpan{place, len(b)})
	}
	b = append(b, `,"special_days":`...)
	b = appendSpecialDays(b, f.SpecialDays)
	b = append(b, `,"open_on_holidays":`...)
	b = strconv.AppendBool(b, f.OpenOnHolidays)
	b = append(b, `,"verified":`...)
	b = strconv.AppendBool(b, f.Verified)
	b = append(b, `,"verified_at":`...)
	if f.VerifiedAt == nil {
		b = append(b, "null"...)
	} else {
		b = appendString(b, *f.VerifiedAt)
	}
	b = append(b, `,"claimable":`...)
	return strconv.AppendBool(b, f.Claimable)
}

// appendSpecialDays encodes the special days as encoding/json would.
func appendSpecialDays(b []byte, ds []store.SpecialDay) []byte {
	if ds == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, d := range ds {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"date":`...)
		b = appendString(b, d.Date)
		b = append(b, `,"closed":`...)
		b = strconv.AppendBool(b, d.Closed)
		b = append(b, `,"boarding":`...)
		b = strconv.AppendBool(b, d.Boarding)
		b = append(b, `,"time":`...)
		b = appendSlots(b, d.Time)
		b = append(b, `,"note":`...)
		b = appendString(b, d.Note)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendSlots encodes opening periods as encoding/json would.
func appendSlots(b []byte, ss []store.Slot) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"open":`...)
		b = strconv.AppendInt(b, int64(s.Open), 10)
		b = append(b, `,"close":`...)
		b = strconv.AppendInt(b, int64(s.Close), 10)
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendProvinceRef(b []byte, p *provinceRef) []byte {
	switch {
	case p == nil:
		return append(b, "null"...)
	case p.json != nil:
		return append(b, p.json...)
	}
	return append(appendNames(b, p.ID, p.FarsiName, p.EnglishName), '}')
}

func appendCityRef(b []byte, c *cityRef) []byte {
	switch {
	case c == nil:
		return append(b, "null"...)
	case c.json != nil:
		return append(b, c.json...)
	}
	b = append(appendNames(b, c.ID, c.FarsiName, c.EnglishName), `,"slag":`...)
	b = appendString(b, c.Slag)
	return append(b, '}')
}

// appendNames opens a reference form: its id and its Persian and English names.
func appendNames(b []byte, id int64, fa, en string) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, `,"farsi_name":`...)
	b = appendString(b, fa)
	b = append(b, `,"english_name":`...)
	return appendString(b, en)
}

// appendProfileFormTail ends a read form begun by appendProfileFormHead.
func appendProfileFormTail(b []byte, openStatus string, next *store.Change, distance *int64) []byte {
	b = append(b, `,"open_status":`...)
	b = appendString(b, openStatus)
	b = append(b, `,"next_change":`...)
	if next == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"at":"`...)
		b = next.At.AppendFormat(b, time.RFC3339Nano)
		b = append(b, `","status":`...)
		b = appendString(b, next.Status)
		b = append(b, '}')
	}
	if distance != nil {
		b = append(b, `,"distance":`...)
		b = strconv.AppendInt(b, *distance, 10)
	}
	return append(b, '}')
}

func appendCategoryRef(b []byte, c *categoryRef) []byte {
	if c.json != nil {
		return append(b, c.json...)
	}
	b = append(appendNames(b, c.ID, c.FarsiName, c.EnglishName), `,"slag":`...)
	b = appendString(b, c.Slag)
	b = append(b, `,"parent_ids":`...)
	b = appendInt64s(b, c.ParentIDs)
	return append(b, '}')
}

// appendHours writes the week with its days in key order, as encoding/json writes a map.
func appendHours(b []byte, h store.Hours) []byte {
	if h == nil {
		return append(b, "null"...)
	}
	var keys [8]string
	days := keys[:0]
	for d := range h {
		days = append(days, d)
	}
	slices.Sort(days)
	b = append(b, '{')
	for i, d := range days {
		if i > 0 {
			b = append(b, ',')
		}
		day := h[d]
		b = appendString(b, d)
		b = append(b, `:{"boarding":`...)
		b = strconv.AppendBool(b, day.Boarding)
		b = append(b, `,"closed":`...)
		b = strconv.AppendBool(b, day.Closed)
		b = append(b, `,"time":`...)
		if day.Time == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for j, s := range day.Time {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"open":`...)
				b = strconv.AppendInt(b, int64(s.Open), 10)
				b = append(b, `,"close":`...)
				b = strconv.AppendInt(b, int64(s.Close), 10)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

func appendInt64s(b []byte, ids []int64) []byte {
	if ids == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return append(b, ']')
}

func appendInt64Ptr(b []byte, v *int64) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, *v, 10)
}

// appendFloat writes f as encoding/json does: the shortest form, exponent only for very small or
// very large numbers. A value JSON cannot hold (never stored) is written as 0.
func appendFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, '0')
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 becomes e-9, as encoding/json writes it.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendRaw writes stored JSON compacted and HTML-escaped, as encoding/json writes a
// json.RawMessage; nothing stored is written as null.
func appendRaw(b []byte, raw json.RawMessage) []byte {
	switch string(raw) {
	case "":
		return append(b, "null"...)
	case "[]", "{}", "null":
		return append(b, raw...)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return append(b, "null"...)
	}
	var escaped bytes.Buffer
	json.HTMLEscape(&escaped, compact.Bytes())
	return append(b, escaped.Bytes()...)
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string the way encoding/json does by default: quotes,
// backslashes and control characters escaped, <, > and & as \u003c, \u003e and \u0026, the line
// and paragraph separators escaped, and invalid UTF-8 replaced by U+FFFD. Runs of safe bytes are
// copied whole, and a two-byte sequence (every Persian and Arabic letter) is checked without
// decoding its rune.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if !jsonSafe[c] {
				b = append(b, s[start:i]...)
				b = appendEscaped(b, c)
				start = i + 1
			}
			i++
			continue
		}
		if c >= 0xC2 && c <= 0xDF && i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
			i += 2
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			start = i + size
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			start = i + size
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// jsonSafe marks the ASCII bytes written as they are.
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

func appendEscaped(b []byte, c byte) []byte {
	switch c {
	case '\\', '"':
		return append(b, '\\', c)
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}
