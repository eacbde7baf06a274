package extract

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/simplifiedchinese"

	"github.com/winnow-go/winnow/internal/gz"
	"github.com/winnow-go/winnow/internal/shareddata"
)

// misread is b read as windows-1252 and written as UTF-8 again, as a
// wrong codec stores a page.
func misread(t testing.TB, b []byte) string { return misreadAs(t, b, charmap.Windows1252) }

// misreadAs is misread in another single-byte charset.
func misreadAs(t testing.TB, b []byte, cm *charmap.Charmap) string {
	t.Helper()
	var sb strings.Builder
	for _, c := range b {
		r := cm.DecodeByte(c)
		if r == utf8.RuneError {
			r = rune(c) // the five bytes windows-1252 leaves undefined, as Latin-1 reads them
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

func noLabels() []string { return nil }

func TestRepairMojibake(t *testing.T) {
	gbk, err := simplifiedchinese.GBK.NewEncoder().String("<p>船长被游轮公司认定责任 贴近海岸让同事望家乡，搜狐新闻报道。</p>")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, in, want, how string
		declared            []string
	}{
		{name: "whole page", in: misread(t, []byte("<p>Don’t — café, naïve, 10 €</p>")),
			want: "<p>Don’t — café, naïve, 10 €</p>", how: "UTF-8 read as windows-1252"},
		{name: "twice", in: misread(t, []byte(misread(t, []byte("<p>it’s “quoted”</p>")))),
			want: "<p>it’s “quoted”</p>", how: "UTF-8 read as windows-1252"},
		{name: "GBK page declared", in: misread(t, []byte(gbk)), declared: []string{"gbk"},
			want: "<p>船长被游轮公司认定责任 贴近海岸让同事望家乡，搜狐新闻报道。</p>", how: "gb18030 read as windows-1252"},
		{name: "GBK page read as ISO-8859-15", in: misreadAs(t, []byte(gbk), charmap.ISO8859_15), declared: []string{"", "gb2312"},
			want: "<p>船长被游轮公司认定责任 贴近海岸让同事望家乡，搜狐新闻报道。</p>", how: "gb18030 read as ISO-8859-15"},
		{name: "GBK page undeclared", in: misread(t, []byte(gbk)), want: misread(t, []byte(gbk))},
		{name: "GBK page declared windows-1251", in: misread(t, []byte(gbk)), declared: []string{"windows-1251"},
			want: misread(t, []byte(gbk))},
		{name: "sequences in a right page", in: "<p>função — Grüße: fÃ¼r die StraÃŸe, donâ€™t, MedellÃ\u00adn, Å‚</p>",
			want: "<p>função — Grüße: für die Straße, don’t, Medellín, Å‚</p>", how: "UTF-8 sequences read as windows-1252"},
		{name: "layered sequences", in: "<p>x " + misread(t, []byte(misread(t, []byte("“a”")))) + " é</p>",
			want: "<p>x “a” é</p>", how: "UTF-8 sequences read as windows-1252"},
		// Real text that is also well-formed UTF-8 when read as bytes.
		{name: "guillemet", in: "<p>C’est passé\u00a0» dit-il, «\u00a0oui\u00a0»</p>", want: "<p>C’est passé\u00a0» dit-il, «\u00a0oui\u00a0»</p>"},
		{name: "soft hyphen", in: "<p>Straß\u00adenbahn NESCAFÉ® på Å\u00a0och Ä\u00adx</p>", want: "<p>Straß\u00adenbahn NESCAFÉ® på Å\u00a0och Ä\u00adx</p>"},
		{name: "Latin-1 page", in: "<p>Voilà un café à Zürich, naïve façade</p>", want: "<p>Voilà un café à Zürich, naïve façade</p>"},
		{name: "curly quotes only", in: "<p>“Don’t”</p>", want: "<p>“Don’t”</p>"},
		{name: "ASCII", in: "<p>plain</p>", want: "<p>plain</p>"},
		{name: "Â before a control", in: "<p>Â\u0085x ✓</p>", want: "<p>Â\u0085x ✓</p>"},
		{name: "cut sequence", in: "<p>a é ok</p><p>â€", want: "<p>a é ok</p><p>â€"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, n, how := repairMojibake([]byte(c.in), func() []string { return c.declared })
			if string(got) != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
			if how != c.how || (n > 0) != (c.how != "") {
				t.Errorf("restored %d (%q), want %q", n, how, c.how)
			}
		})
	}
}

// TestMojibakeParse: a page restored warns; KeepMojibake leaves it.
func TestMojibakeParse(t *testing.T) {
	page := []byte("<html><head><title>x</title></head><body><p>Itâ€™s here. " +
		strings.Repeat("Some words of a paragraph that is long enough. ", 8) + "</p></body></html>")
	p, err := Extract(page, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Text(), "It’s here") || !slicesContainPrefix(p.Warnings, "mojibake: 1 character restored (") {
		t.Errorf("text %q, warnings %q", p.Text(), p.Warnings)
	}
	p, err = Extract(page, Options{KeepMojibake: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Text(), "Itâ€™s here") || slicesContainPrefix(p.Warnings, "mojibake") {
		t.Errorf("KeepMojibake: text %q, warnings %q", p.Text(), p.Warnings)
	}
}

func slicesContainPrefix(l []string, prefix string) bool {
	for _, s := range l {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// TestMojibakeSharedData: over the pages of ../shared/data, the whole
// page is read again only on the 13 that are mojibake from end to end
// (12 UTF-8 pages of WCXB and htmldate, one GBK page of daniel-zh), and
// among them none of the 1,504 UTF-8 pages whose non-ASCII letters are
// all Latin-1's; every single sequence restored opens with one of the
// leads sequenceMojibake takes and spells a letter or a symbol.
func TestMojibakeSharedData(t *testing.T) {
	data := shareddata.Require(t)
	files, err := filepath.Glob(filepath.Join(data, "*", "*", "html", "*.html.gz"))
	if err != nil || len(files) < 3000 {
		t.Fatalf("%d pages under %s (%v)", len(files), data, err)
	}
	whole, pages, seqs := 0, 0, 0
	for _, f := range files {
		raw, err := gz.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Decode(raw, "")
		if err != nil {
			continue
		}
		if _, _, _, ok := wholeMojibake(d.Text, func() []string { return []string{metaCharset(raw)} }); ok {
			whole++
			continue
		}
		out, n := sequenceMojibake(d.Text)
		if n == 0 {
			continue
		}
		pages++
		seqs += n
		if !utf8.Valid(out) || len(out) >= len(d.Text) {
			t.Errorf("%s: %d sequences, %d -> %d bytes", filepath.Base(f), n, len(d.Text), len(out))
		}
	}
	t.Logf("%d pages read again whole, %d sequences restored in %d pages", whole, seqs, pages)
	if whole != 13 {
		t.Errorf("%d pages read again whole, want 13", whole)
	}
}

// FuzzRepairMojibake: on UTF-8 input, the repair gives UTF-8, keeps
// every ASCII byte in order (markup is never made or broken) and never
// grows the text.
func FuzzRepairMojibake(f *testing.F) {
	for _, s := range []string{"", "â€™", "Ã©Ã", "Ã¢â‚¬â„¢", "é\u00a0»", "<p a=\"Â®\">Ä…</p>", "â€\x9d", "Ã\u00ad"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !utf8.Valid(b) {
			return
		}
		out, n, _ := repairMojibake(b, noLabels)
		if !utf8.Valid(out) {
			t.Fatalf("%q -> %q: not UTF-8", b, out)
		}
		if n == 0 && !bytes.Equal(out, b) || n > 0 && len(out) >= len(b) {
			t.Fatalf("%q -> %q with %d restored", b, out, n)
		}
		if !bytes.Equal(asciiOf(out), asciiOf(b)) {
			t.Fatalf("%q -> %q: ASCII changed", b, out)
		}
	})
}

func asciiOf(b []byte) []byte {
	var out []byte
	for _, c := range b {
		if c < utf8.RuneSelf {
			out = append(out, c)
		}
	}
	return out
}
