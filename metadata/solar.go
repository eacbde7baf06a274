package metadata

import (
	"strings"
	"time"
)

// Iran and Afghanistan date their pages in the Solar Hijri calendar:
// "۱۲ خرداد ۱۴۰۰", "1400/03/12", an og:published_time of "1399-05-12".
// Its year starts at the spring equinox (Nowruz, 20 or 21 March); the
// first six months have 31 days, the next five 30, the last 29 or 30.
// Leap years follow the 33-year cycle, whose years 1, 5, 9, 13, 17, 22,
// 26 and 30 are leap. Day by day, that arithmetic gives the days
// github.com/jalaali/go-jalaali (Borkowski's algorithm for the calendar
// Iran keeps) gives for every year from 1210 to 1629, and not in 1630; it
// is used from 1300 to 1600 (1921-2222 CE). The comparison was a
// throwaway test in a module of its own: the library is unmaintained, and
// the arithmetic is a few lines.

// Solar Hijri years written in digits alone are read as such only from
// solarFirst to solarLast (1991-2042): a four-digit year there is no
// common-era date of the web, and the (lunar) Hijri years there are
// 1950-2000, before most pages. With a Persian or Dari month's name
// any year of the cycle's span reads.
const (
	solarFirst, solarLast = 1370, 1420
	solarMin, solarMax    = 1300, 1600
)

// solarMonths are the Solar Hijri months' names, Persian and Dari, by
// number (Arabic yeh and kaf folded to the Persian letters, see
// solarFold).
var solarMonths = func() map[string]int {
	m := map[string]int{}
	for i, n := range []string{"فروردین", "اردیبهشت", "خرداد", "تیر", "مرداد", "شهریور", "مهر", "آبان", "آذر", "دی", "بهمن", "اسفند"} {
		m[n] = i + 1
	}
	for i, n := range []string{"حمل", "ثور", "جوزا", "سرطان", "اسد", "سنبله", "میزان", "عقرب", "قوس", "جدی", "دلو", "حوت"} {
		m[n] = i + 1
	}
	return m
}()

// solarFold writes Arabic yeh and kaf as the Persian letters, as pages
// use either.
var solarFold = strings.NewReplacer("ي", "ی", "ك", "ک")

// solarMonth is the Solar Hijri month a word names, or 0.
func solarMonth(w string) int {
	if w == "" || w[0] < 0xd8 || w[0] > 0xdb { // not Arabic script
		return 0
	}
	return solarMonths[solarFold.Replace(w)]
}

// solarLeap says whether the Solar Hijri year y has 366 days.
func solarLeap(y int) bool {
	switch (y%33 + 33) % 33 {
	case 1, 5, 9, 13, 17, 22, 26, 30:
		return true
	}
	return false
}

// nowruz1399 is the first day of Solar Hijri year 1399.
var nowruz1399 = time.Date(2020, 3, 20, 0, 0, 0, 0, time.UTC)

// fromSolar is the common-era day of the Solar Hijri day y-m-d, with d's
// time of day; ok is false for no such day or a year out of the cycle's
// span.
func fromSolar(d date) (date, bool) {
	y, m, day := d.y, d.m, d.d
	if y < solarMin || y > solarMax || m < 1 || m > 12 || day < 1 {
		return date{}, false
	}
	length := 31
	switch {
	case m == 12 && solarLeap(y):
		length = 30
	case m == 12:
		length = 29
	case m > 6:
		length = 30
	}
	if day > length {
		return date{}, false
	}
	days := 0
	for k := 1399; k < y; k++ {
		days += 365
		if solarLeap(k) {
			days++
		}
	}
	for k := y; k < 1399; k++ {
		days -= 365
		if solarLeap(k) {
			days--
		}
	}
	if m <= 6 {
		days += (m - 1) * 31
	} else {
		days += 6*31 + (m-7)*30
	}
	t := nowruz1399.AddDate(0, 0, days+day-1)
	d.y, d.m, d.d = t.Year(), int(t.Month()), t.Day()
	return d, true
}

// solarDigits reads a date written in digits alone whose year is a Solar
// Hijri one (solarFirst to solarLast) as such; other dates stay.
func solarDigits(d date) date {
	if d.y < solarFirst || d.y > solarLast {
		return d
	}
	if g, ok := fromSolar(d); ok {
		return g
	}
	return d
}
