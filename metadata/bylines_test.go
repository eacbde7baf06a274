package metadata

import (
	"slices"
	"testing"
)

// TestUnmarkedBylinesManyLanguages reads a byline no class marks, in 31
// languages: a preposition ("By", "Von", "Door") or a label with its
// colon ("Piše:", "Autorius:", "Συντάκτης:"). Catalan "Per", Danish "Af"
// and Malay "Oleh" are words of other uses too ("Per maggiori
// informazioni", "AF Group", the name Oleh): they do not make an
// unmarked line a byline.
func TestUnmarkedBylinesManyLanguages(t *testing.T) {
	body := `<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>`
	for _, c := range []struct{ lang, byline, want string }{
		{"en", "By Ann Lee", "Ann Lee"},
		{"hr", "Piše: Ivan Horvat", "Ivan Horvat"},
		{"sr", "Autor: Marko Marković", "Marko Marković"},
		{"sl", "Avtor: Janez Novak", "Janez Novak"},
		{"lt", "Autorius: Jonas Jonaitis", "Jonas Jonaitis"},
		{"lv", "Autors: Jānis Bērziņš", "Jānis Bērziņš"},
		{"et", "Autor: Mari Tamm", "Mari Tamm"},
		{"sk", "Autor: Ján Novák", "Ján Novák"},
		{"pl", "Autor: Jan Kowalski", "Jan Kowalski"},
		{"ca", "Per Joan Garcia", ""},
		{"nb", "Av Ola Nordmann", "Ola Nordmann"},
		{"da", "Af Lars Jensen", ""},
		{"sv", "Av Anna Svensson", "Anna Svensson"},
		{"fi", "Kirjoittaja: Matti Virtanen", "Matti Virtanen"},
		{"id", "Penulis: Budi Santoso", "Budi Santoso"},
		{"ms", "Oleh Ahmad Ibrahim", ""},
		{"ro", "Autor: Ion Popescu", "Ion Popescu"},
		{"bg", "Автор: Иван Иванов", "Иван Иванов"},
		{"uk", "Автор: Іван Петренко", "Іван Петренко"},
		{"tr", "Yazar: Ahmet Yılmaz", "Ahmet Yılmaz"},
		{"hu", "Szerző: Kovács János", "Kovács János"},
		{"el", "Συντάκτης: Γιώργος Παπαδόπουλος", "Γιώργος Παπαδόπουλος"},
		{"pt", "Por João Silva", "João Silva"},
		{"nl", "Door Jan de Vries", "Jan de Vries"},
		{"cs", "Autor: Jan Novák", "Jan Novák"},
		{"vi", "Tác giả: Nguyễn Văn An", "Nguyễn Văn An"},
		{"it", "di Mario Rossi", "Mario Rossi"},
		{"es", "Por Ana López", "Ana López"},
		{"fr", "Par Marie Dupont", "Marie Dupont"},
		{"de", "Von Anna Schmidt", "Anna Schmidt"},
		{"ru", "Автор: Иван Петров", "Иван Петров"},
	} {
		m := read(t, `<html lang="`+c.lang+`"><head><meta charset="utf-8"><title>Headline</title></head><body><article><h1>Headline</h1>`+
			`<p>`+c.byline+`</p><p>12.03.2021</p>`+body+`</article></body></html>`, "")
		var want []string
		if c.want != "" {
			want = []string{c.want}
		}
		if !slices.Equal(m.Authors, want) {
			t.Errorf("%s: authors %q; want %q", c.lang, m.Authors, c.want)
		}
	}
}
