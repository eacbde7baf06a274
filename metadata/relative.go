package metadata

import (
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// A page that shows its date as the time since it was posted ("3 hours
// ago", "vor 2 Tagen", "昨天") gives a day only against the time it was
// fetched: read later, the same words name another day. relativeDate
// reads such a date in a short text of a date element, in the languages
// of langid.DefaultLanguages that write it with words around a number,
// and only in units up to a day. "3 weeks ago" or "2 months ago" is
// rounded by the site and names no day, so it gives none.

// agoUnits are the unit words of an elapsed time, in the languages with
// a list below, and how long each is.
var agoUnits = func() map[string]time.Duration {
	m := map[string]time.Duration{}
	add := func(d time.Duration, words string) {
		for w := range strings.FieldsSeq(words) {
			m[w] = d
		}
	}
	add(time.Second, "second seconds sec secs sekunde sekunden seconde secondes segundo segundos secondo secondi "+
		"seconden секунду секунды секунд saniye sekund sekunder sekundę sekundy sekundou sekundami giây detik")
	add(time.Minute, "minute minutes min mins minuten minuto minutos minuti minuut минуту минуты минут хвилину хвилини "+
		"хвилин minutę minuty minut dakika minuter minutter minutou minutami phút menit minit")
	add(time.Hour, "hour hours hr hrs stunde stunden heure heures hora horas ora ore uur час часа часов годину години "+
		"годин godzinę godziny godzin timme timmar time timer hodinou hodinami giờ jam")
	add(24*time.Hour, "day days tag tagen tage jour jours día días dia dias giorno giorni dag dagen день дня дней дні "+
		"днів dzień dni gün dagar dage dager dnem dny ngày hari")
	return m
}()

// agoAfter are the words after "<number> <unit>" that make it past, and
// agoBefore those before it ("vor", "il y a"); "för … sedan" and "for …
// siden" have both.
var (
	agoAfter  = set("ago", "geleden", "fa", "назад", "тому", "temu", "önce", "sedan", "siden", "trước", "lalu", "atrás")
	agoBefore = []string{"vor", "il y a", "hace", "há", "před", "pred", "för", "for"}
)

// agoOne are the words for "one" that stand for the number ("an hour
// ago", "vor einem Tag", "il y a une heure").
var agoOne = set("a", "an", "one", "ein", "eine", "einem", "einer", "einen", "un", "une", "una", "um", "uma", "een")

// dayWords are the words for yesterday and today, by days before the
// fetch; a text must open with one, alone or with a time of day.
var dayWords = map[string]int{
	"yesterday": 1, "gestern": 1, "hier": 1, "ayer": 1, "ontem": 1, "ieri": 1, "gisteren": 1, "вчера": 1,
	"вчора": 1, "wczoraj": 1, "dün": 1, "igår": 1, "včera": 1, "kemarin": 1, "昨天": 1, "昨日": 1, "어제": 1,
	"today": 0, "heute": 0, "hoy": 0, "hoje": 0, "oggi": 0, "vandaag": 0, "сегодня": 0, "сьогодні": 0,
	"dzisiaj": 0, "dziś": 0, "bugün": 0, "idag": 0, "dnes": 0, "今天": 0, "今日": 0, "오늘": 0,
	"前天": 2, "一昨日": 2,
}

// cjkAgo is an elapsed time in Chinese, Japanese or Korean: "3小时前",
// "5分前", "2 시간 전".
var cjkAgo = regexp.MustCompile(`^(\d+)\s*(秒|分钟|分鐘|分|小时|小時|時間|天|日|초|분|시간|일)\s*(?:前|전)`)

var cjkAgoUnits = map[string]time.Duration{"秒": time.Second, "초": time.Second, "分钟": time.Minute, "分鐘": time.Minute,
	"分": time.Minute, "분": time.Minute, "小时": time.Hour, "小時": time.Hour, "時間": time.Hour, "시간": time.Hour,
	"天": 24 * time.Hour, "日": 24 * time.Hour, "일": 24 * time.Hour}

// maxRelative is the longest text (in bytes) read for a relative date:
// a date element's, not a sentence.
const maxRelative = 80

// relativeDate reads the day a short text names by the time since
// fetched ("3 hours ago" fetched at 2021-03-12T02:00Z is 2021-03-11),
// in fetched's zone.
func relativeDate(s string, fetched time.Time) (date, bool) {
	if fetched.IsZero() || len(s) > maxRelative {
		return date{}, false
	}
	s = strings.ToLower(strings.TrimSpace(s))
	words := strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",.·|•-–—()[]", r)
	})
	if len(words) == 0 {
		return date{}, false
	}
	if n, ok := dayWords[words[0]]; ok {
		// Alone or with a time of day ("Gestern, 18:02"), not among
		// other words ("Today Tomorrow This weekend", a filter's).
		if len(words) == 1 || strings.ContainsAny(s, "0123456789") {
			return dayOf(fetched.AddDate(0, 0, -n)), true
		}
		return date{}, false
	}
	if m := cjkAgo.FindStringSubmatch(s); m != nil {
		n, err := strconv.Atoi(m[1])
		if err != nil || n > 1000 {
			return date{}, false
		}
		return dayOf(fetched.Add(-time.Duration(n) * cjkAgoUnits[m[2]])), true
	}
	for i := 0; i+1 < len(words); i++ {
		unit, ok := agoUnits[words[i+1]]
		if !ok {
			continue
		}
		n, err := strconv.Atoi(words[i])
		if agoOne[words[i]] {
			n, err = 1, nil
		}
		if err != nil || n > 1000 {
			continue
		}
		past := i+2 < len(words) && (agoAfter[words[i+2]] || words[i+2] == "yang" && i+3 < len(words) && words[i+3] == "lalu")
		if !past {
			before := strings.Join(words[:i], " ")
			for _, b := range agoBefore {
				if before == b || strings.HasSuffix(before, " "+b) {
					past = b != "för" && b != "for" // Swedish and Danish put "sedan", "siden" after too
					break
				}
			}
		}
		if past {
			return dayOf(fetched.Add(-time.Duration(n) * unit)), true
		}
	}
	return date{}, false
}

// dayOf is the calendar day of t, in t's zone, without its time.
func dayOf(t time.Time) date {
	return date{y: t.Year(), m: int(t.Month()), d: t.Day()}
}
