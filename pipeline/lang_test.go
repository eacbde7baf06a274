package pipeline

import (
	"context"
	"strings"
	"testing"
)

// TestRecordLangIdentified: a page that declares English but is written
// in German gets lang "de" from its text, with the text as the source
// and a confidence; with NoLangID it keeps the declaration.
func TestRecordLangIdentified(t *testing.T) {
	body := `<!doctype html><html lang="en"><head><title>Neues Mietrecht</title></head><body>
<article><h1>Bundestag beschließt neues Mietrecht</h1>
<p>Der Bundestag hat am Donnerstag ein Gesetz beschlossen, das die Mieten in den großen Städten
begrenzen soll. Vermieter dürfen die Miete bei einer neuen Vermietung künftig höchstens um zehn
Prozent über die ortsübliche Vergleichsmiete anheben. Die Opposition kritisierte, dass die Regelung
zu viele Ausnahmen enthalte und zu spät komme.</p>
<p>Mieterverbände begrüßten die Entscheidung, forderten aber strengere Kontrollen, weil viele
Vermieter sich bisher nicht an die Grenzen gehalten hätten.</p></article></body></html>`
	for _, c := range []struct {
		name     string
		st       Stages
		want     string
		wantSrc  string
		wantConf bool
	}{
		{"identified", Stages{}, "de", "text", true},
		{"declared only", Stages{NoLangID: true}, "en", "meta", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, _, err := c.st.Page(context.Background(), Input{URL: "https://example.org/mietrecht", Body: []byte(body)}, nil, "")
			if err != nil {
				t.Fatal(err)
			}
			r := NewRecord(p, "test", RecordOptions{})
			if r.Lang != c.want || r.Sources["lang"] != c.wantSrc || (r.LangConfidence >= 0.7) != c.wantConf {
				t.Errorf("lang %q from %q (%.2f), want %q from %q; text %q", r.Lang, r.Sources["lang"], r.LangConfidence, c.want, c.wantSrc, strings.TrimSpace(r.Text)[:40])
			}
		})
	}
}
