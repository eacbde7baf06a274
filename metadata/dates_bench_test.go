package metadata

import "testing"

// BenchmarkFindDate reads the short texts a page's walk tries for a date:
// date lines in several forms and texts with digits but no date.
func BenchmarkFindDate(b *testing.B) {
	texts := []string{
		"Posted March 12th, 2021 by Ann", "Veröffentlicht am 12. März 2021", "2021年3月12日 10:00",
		"Updated 2024-02-11T07:30:00+00:00", "11/22/2020", "22/11/2020 - 04:30", "Stand: 30.07.2019 09:35 Uhr",
		"Call 0800 123 456 from 2019", "Over 2500 customers since 1998", "© 2024 Acme Inc. All rights reserved",
		"3 items in your cart, 2023 model", "Room 1204, floor 12",
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			findDate(t)
		}
	}
}
