package metadata

import "testing"

// TestFindDateManyLanguages reads the written dates of the languages of
// langid.DefaultLanguages that TestFindDate leaves out: abbreviated
// months, other cases of the month's name, the Baltic languages' year
// first, Vietnamese's month by its number, the Thai Buddhist era. The
// abbreviations that are also words name a month only after the day.
func TestFindDateManyLanguages(t *testing.T) {
	for in, want := range map[string]string{
		"12 янв 2021":              "2021-01-12",
		"12 янв. 2021 г.":          "2021-01-12",
		"5 дек. 2020":              "2020-12-05",
		"12. Mär. 2021":            "2021-03-12",
		"12 gen 2021":              "2021-01-12",
		"12 mag 2021":              "2021-05-12",
		"12 giu 2021":              "2021-06-12",
		"12 lug 2021":              "2021-07-12",
		"12 set 2021":              "2021-09-12",
		"12 ott 2021":              "2021-10-12",
		"12 fev 2021":              "2021-02-12",
		"12 out 2021":              "2021-10-12",
		"12 mrt 2021":              "2021-03-12",
		"12. mája 2021":            "2021-05-12",
		"12. marec 2021":           "2021-03-12",
		"12. junij 2021":           "2021-06-12",
		"12. julij 2021":           "2021-07-12",
		"12. avgust 2021":          "2021-08-12",
		"12. septembar 2021.":      "2021-09-12",
		"12. oktobar 2021.":        "2021-10-12",
		"12. новембар 2021.":       "2021-11-12",
		"12. децембар 2021.":       "2021-12-12",
		"12. јануар 2021.":         "2021-01-12",
		"12 април 2021 г.":         "2021-04-12",
		"12 декември 2021 г.":      "2021-12-12",
		"12. märts 2021":           "2021-03-12",
		"12. detsember 2021":       "2021-12-12",
		"12. oktoober 2021":        "2021-10-12",
		"12 Ogos 2021":             "2021-08-12",
		"12 Disember 2021":         "2021-12-12",
		"12 Julai 2021":            "2021-07-12",
		"12 Mac 2021":              "2021-03-12",
		"12 मार्च 2021":            "2021-03-12",
		"12 अक्टूबर 2021":          "2021-10-12",
		"12 במרץ 2021":             "2021-03-12",
		"12 בדצמבר 2021":           "2021-12-12",
		"2021 m. kovo 12 d.":       "2021-03-12",
		"2021. gada 12. marts":     "2021-03-12",
		"ngày 12 tháng 3 năm 2021": "2021-03-12",
		"12 tháng 3, 2021":         "2021-03-12",
		"12 sty 2021":              "2021-01-12",
		"12 lis 2021":              "2021-11-12",
		"12 มีนาคม 2564":           "2021-03-12",
		"วันที่ 5 ธันวาคม 2563": "2020-12-05",
		"12 آذار 2021":       "2021-03-12",
		"12 d'abril de 2021": "2021-04-12",
	} {
		d, ok := findDate(in)
		if !ok || d.day() != want {
			t.Errorf("findDate(%q) = %q, %v; want %q", in, d.day(), ok, want)
		}
	}
	for _, in := range []string{"Apple iPad Pro Gen 5 2021", "Sold out 12 2019 units", "Lego Set 12 2019"} {
		if d, ok := findDate(in); ok {
			t.Errorf("findDate(%q) = %q", in, d.day())
		}
	}
}
