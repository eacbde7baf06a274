package metadata

import "testing"

// TestDateLabelsManyLanguages reads a page in each of 33 languages
// whose headline two unmarked lines follow, an update's and the
// publication's, in either order: the publication's date is the page's.
func TestDateLabelsManyLanguages(t *testing.T) {
	body := `<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>`
	for _, c := range []struct{ lang, upd, pub, udate, pdate string }{
		{"en", "Updated:", "Published:", "14 March 2021", "12 March 2021"},
		{"nl", "Bijgewerkt:", "Gepubliceerd:", "14 maart 2021", "12 maart 2021"},
		{"pl", "Zaktualizowano:", "Opublikowano:", "14 marca 2021", "12 marca 2021"},
		{"cs", "Aktualizováno:", "Publikováno:", "14. března 2021", "12. března 2021"},
		{"sk", "Aktualizované:", "Publikované:", "14. marca 2021", "12. marca 2021"},
		{"tr", "Güncellenme:", "Yayınlanma:", "14 Mart 2021", "12 Mart 2021"},
		{"sv", "Uppdaterad:", "Publicerad:", "14 mars 2021", "12 mars 2021"},
		{"da", "Opdateret:", "Publiceret:", "14. marts 2021", "12. marts 2021"},
		{"nb", "Oppdatert:", "Publisert:", "14. mars 2021", "12. mars 2021"},
		{"fi", "Päivitetty:", "Julkaistu:", "14. maaliskuuta 2021", "12. maaliskuuta 2021"},
		{"hu", "Frissítve:", "Közzétéve:", "2021. március 14.", "2021. március 12."},
		{"ro", "Actualizat:", "Publicat:", "14 martie 2021", "12 martie 2021"},
		{"uk", "Оновлено:", "Опубліковано:", "14 березня 2021", "12 березня 2021"},
		{"bg", "Актуализирано:", "Публикувано:", "14 март 2021", "12 март 2021"},
		{"el", "Ενημερώθηκε:", "Δημοσιεύθηκε:", "14 Μαρτίου 2021", "12 Μαρτίου 2021"},
		{"pt", "Atualizado em", "Publicado em", "14/03/2021", "12/03/2021"},
		{"id", "Diperbarui:", "Diterbitkan:", "14 Maret 2021", "12 Maret 2021"},
		{"vi", "Cập nhật:", "Ngày đăng:", "14/03/2021", "12/03/2021"},
		{"hr", "Ažurirano:", "Objavljeno:", "14. ožujka 2021.", "12. ožujka 2021."},
		{"sl", "Posodobljeno:", "Objavljeno:", "14. marec 2021", "12. marec 2021"},
		{"ca", "Actualitzat:", "Publicat:", "14 de març de 2021", "12 de març de 2021"},
		{"it", "Aggiornato:", "Pubblicato:", "14 marzo 2021", "12 marzo 2021"},
		{"de", "Aktualisiert:", "Veröffentlicht:", "14.03.2021", "12.03.2021"},
		{"ru", "Обновлено:", "Опубликовано:", "14.03.2021", "12.03.2021"},
		{"ja", "更新日：", "公開日：", "2021年3月14日", "2021年3月12日"},
		{"ko", "수정", "입력", "2021.03.14 10:30", "2021.03.12 10:30"},
		{"lt", "Atnaujinta:", "Paskelbta:", "2021 m. kovo 14 d.", "2021 m. kovo 12 d."},
		{"lv", "Atjaunots:", "Publicēts:", "2021. gada 14. martā", "2021. gada 12. martā"},
		{"et", "Uuendatud:", "Avaldatud:", "14. märts 2021", "12. märts 2021"},
		{"he", "עודכן:", "פורסם:", "14 במרץ 2021", "12 במרץ 2021"},
		{"ar", "تحديث:", "نشر في:", "14 مارس 2021", "12 مارس 2021"},
		{"zh", "更新时间：", "发布时间：", "2021年3月14日", "2021年3月12日"},
		{"zh-Hant", "最後更新：", "發布時間：", "2021年3月14日", "2021年3月12日"},
	} {
		for _, order := range []bool{true, false} {
			lines := `<p>` + c.pub + ` ` + c.pdate + `</p><p>` + c.upd + ` ` + c.udate + `</p>`
			if order {
				lines = `<p>` + c.upd + ` ` + c.udate + `</p><p>` + c.pub + ` ` + c.pdate + `</p>`
			}
			m := read(t, `<html lang="`+c.lang+`"><head><meta charset="utf-8"><title>Headline</title></head><body><article><h1>Headline</h1>`+
				lines+body+`</article></body></html>`, "")
			if m.Published != "2021-03-12" {
				t.Errorf("%s (update first %v): published %q, want 2021-03-12", c.lang, order, m.Published)
			}
		}
	}
}

// TestDateLabelAfterFields: a short line of labelled fields names the
// date by a label after the others. On a listing page (old forum
// threads are often taken for one) no other rule reads such a line.
func TestDateLabelAfterFields(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"作者： \n    size=\"20\"\n    &nbsp;&nbsp;来源：\n    size=\"20\"\n    &nbsp;&nbsp;发布日期： \n    7/5/2005 9:23:57 PM", "2005-05-07"},
		{"Author: Ann Lee  Date: 03.11.2021", "2021-11-03"},
		{"Views: 1200 Comments: 3 Rating: 4.5", ""},
	} {
		page := `<html lang="zh"><body><h1>Title</h1><div>` + c.line + `</div><p>Text of the page.</p></body></html>`
		if got := readAs(t, page, "listing").Published; got != c.want {
			t.Errorf("%q: published %q, want %q", c.line, got, c.want)
		}
	}
}
