package extract

import (
	"os"

	"path/filepath"
	"testing"
	"unicode/utf8"
)

func addFixtureSeeds(f *testing.F) {
	pages, _ := filepath.Glob("../fixtures/pages/*.html")
	for _, p := range pages {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"", "<", "<p>x", "<html><body><div><p>a</p></div>",
		"<meta charset=koi8-r><p>\xf0\xd2\xc9\xd7\xc5\xd4</p>",
		"<pre>  keep\n   spaces</pre>", "<table><tr><td>a<td>b</table>",
		"\xef\xbb\xbf<p>bom</p>", "\xff\xfe<\x00p\x00>\x00", "<svg><p>x</p></svg><math><p>y",
		"<a href=x><p>link<p>words</a>", "<br><br><br>", "<li><li><li>",
		"<p>donÃ¢â‚¬â„¢t Â© 2024</p>", "<meta charset=gbk><p>Ž¬³€±»ÓÎÂÖ¹«ËŸÈÏ¶šÔðÈÎ</p>",
	} {
		f.Add([]byte(s))
	}
}

// FuzzDecode: decoding never panics and always yields valid UTF-8.
func FuzzDecode(f *testing.F) {
	addFixtureSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := Decode(b, "")
		if err != nil {
			return
		}
		if !utf8.Valid(d.Text) && d.Charset != "utf-8" {
			t.Fatalf("decoded as %s via %s, not valid UTF-8", d.Charset, d.Via)
		}
	})
}

// FuzzExtract: extraction never panics, its text is valid UTF-8 and no
// longer than the input can explain, and every block has a label.
func FuzzExtract(f *testing.F) {
	addFixtureSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Extract(b, Options{})
		if err != nil {
			return
		}
		text := p.Text()
		if !utf8.ValidString(text) && utf8.Valid(b) {
			t.Fatal("text is not valid UTF-8")
		}
		// Entities may expand (&NotEqualTilde; is 17 bytes for 5), and a
		// legacy byte becomes up to 3 UTF-8 bytes.
		if len(text) > 4*len(b)+16 {
			t.Fatalf("%d bytes of text from %d bytes of input", len(text), len(b))
		}
		for _, bl := range p.Blocks {
			if bl.Label == Unknown {
				t.Fatalf("unlabelled block %q", bl.Text)
			}
		}
		_ = p.Markdown()
	})
}
