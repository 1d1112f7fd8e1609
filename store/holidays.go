package store

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// Iran's official holidays, as the binary knows them: the solar ones by rule on the Jalali
// calendar, the lunar ones from holidays_lunar.json (its "about" says where the dates come from
// and how to add years). A business is closed on them unless it says it opens on holidays.

// solarHolidays are the official holidays of the Jalali calendar, as month*100 + day.
var solarHolidays = map[int]string{
	101: "Nowruz", 102: "Nowruz", 103: "Nowruz", 104: "Nowruz",
	112: "Islamic Republic Day", 113: "Nature Day",
	314: "Demise of Imam Khomeini", 315: "15 Khordad uprising",
	1122: "Victory of the Islamic Revolution",
	1229: "Nationalisation of the oil industry",
}

//go:embed holidays_lunar.json
var lunarHolidaysJSON []byte

// lunarHolidays are the lunar holidays by Gregorian date, as dayKey writes it. An int key, not
// the date's text: a search answer asks for every profile's open status, nine days each, and
// writing the date for each ask was a tenth of that status's time.
var lunarHolidays = func() map[int]string {
	var doc struct {
		Days []struct {
			Date, En string
		} `json:"days"`
	}
	if err := json.Unmarshal(lunarHolidaysJSON, &doc); err != nil {
		panic(fmt.Sprintf("holidays_lunar.json: %v", err)) // shipped in the binary: a build error
	}
	out := make(map[int]string, len(doc.Days))
	for _, d := range doc.Days {
		g, err := time.Parse(dateLayout, d.Date)
		if err != nil {
			panic(fmt.Sprintf("holidays_lunar.json: %v", err))
		}
		out[dayKey(g.Year(), int(g.Month()), g.Day())] = d.En
	}
	return out
}()

// dayKey answers a Gregorian date as one number: year*10000 + month*100 + day.
func dayKey(y, m, d int) int { return y*10000 + m*100 + d }

// dateLayout is how dates of special days and holidays are written.
const dateLayout = "2006-01-02"

// Holiday answers the English name of the official holiday on the date of t (in t's location),
// or "" when it is a working day.
func Holiday(t time.Time) string {
	y, m, d := t.Date()
	_, jm, jd := Jalali(y, int(m), d)
	if name, ok := solarHolidays[jm*100+jd]; ok {
		return name
	}
	return lunarHolidays[dayKey(y, int(m), d)]
}

// holidayFirstYear and holidayLastYear bound the Gregorian years whose holidays holidayBits
// holds (the lunar table covers fewer; outside it only the solar ones are known, and Holiday
// says the same).
const holidayFirstYear, holidayLastYear = 2000, 2100

// holidayBits marks the official holidays of holidayFirstYear to holidayLastYear, a bit a day
// from 1 January of the first (4.6 KiB). An open status looks at ten days, and converting each
// to the Jalali calendar and looking it up in two maps was half of the status's time, asked
// for every profile of an answer not cached. Built from Holiday on first use, and only read
// after; TestHolidayBitsAsHoliday compares every day of the range.
var holidayBits = sync.OnceValue(func() []uint64 {
	first := time.Date(holidayFirstYear, 1, 1, 0, 0, 0, 0, time.UTC)
	days := gregorianToJDN(holidayLastYear+1, 1, 1) - gregorianToJDN(holidayFirstYear, 1, 1)
	bits := make([]uint64, (days+63)/64)
	for n := range days {
		if Holiday(first.AddDate(0, 0, n)) != "" {
			bits[n/64] |= 1 << (n % 64)
		}
	}
	return bits
})

// isHoliday reports whether the date of t (in t's location) is an official holiday, as
// Holiday(t) != "" does.
func isHoliday(t time.Time) bool {
	y, m, d := t.Date()
	if y < holidayFirstYear || y > holidayLastYear {
		return Holiday(t) != ""
	}
	n := gregorianToJDN(y, int(m), d) - gregorianToJDN(holidayFirstYear, 1, 1)
	return holidayBits()[n/64]&(1<<(n%64)) != 0
}

// Jalali converts a Gregorian date to the Jalali (Persian solar) calendar (the algorithm of
// Borkowski, as the jalaali libraries use it).
func Jalali(gy, gm, gd int) (jy, jm, jd int) {
	jdn := gregorianToJDN(gy, gm, gd)
	jy = gy - 621
	leapJ, march := jalCal(jy)
	jdn1f := gregorianToJDN(gy, 3, march)
	k := jdn - jdn1f
	if k >= 0 {
		if k <= 185 {
			return jy, 1 + k/31, k%31 + 1
		}
		k -= 186
	} else {
		jy--
		k += 179
		if leapJ == 1 {
			k++
		}
	}
	return jy, 7 + k/30, k%30 + 1
}

// jalaliBreaks are the Jalali years where the leap cycle's length changes (Borkowski).
var jalaliBreaks = [...]int{-61, 9, 38, 199, 426, 686, 756, 818, 1111, 1181, 1210, 1635, 2060, 2097, 2192, 2262,
	2324, 2394, 2456, 3178}

// jalCal answers whether Jalali year jy is leap (its place in the 4-year cycle: 0 leap) and the
// day of March on which its first of Farvardin falls.
func jalCal(jy int) (leap, march int) {
	gy := jy + 621
	leapJ := -14
	jp := jalaliBreaks[0]
	jump := 0
	for i := 1; i < len(jalaliBreaks); i++ {
		jm := jalaliBreaks[i]
		jump = jm - jp
		if jy < jm {
			break
		}
		leapJ += jump/33*8 + (jump%33)/4
		jp = jm
	}
	n := jy - jp
	leapJ += n/33*8 + (n%33+3)/4
	if jump%33 == 4 && jump-n == 4 {
		leapJ++
	}
	leapG := gy/4 - (gy/100+1)*3/4 - 150
	march = 20 + leapJ - leapG
	if jump-n < 6 {
		n = n - jump + (jump+4)/33*33
	}
	leap = ((n+1)%33 - 1) % 4
	if leap == -1 {
		leap = 4
	}
	return leap, march
}

func gregorianToJDN(gy, gm, gd int) int {
	d := (gy+(gm-8)/6+100100)*1461/4 + (153*((gm+9)%12)+2)/5 + gd - 34840408
	return d - (gy+100100+(gm-8)/6)/100*3/4 + 752
}
