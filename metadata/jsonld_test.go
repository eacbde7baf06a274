package metadata

import "testing"

// TestJSONLDForms reads an article's date and author from the forms of
// JSON-LD sites write: full type URLs, a vocabulary context, arrays, a
// time zone, a written date, a name as an array or in parts, and an
// author that refers by @id to a Person elsewhere in the @graph (as
// Yoast SEO writes it).
func TestJSONLDForms(t *testing.T) {
	for _, ld := range []string{
		`{"@context":"https://schema.org","@type":"https://schema.org/NewsArticle","headline":"Goats","datePublished":"2021-03-12","author":{"@type":"Person","name":"Ann Lee"}}`,
		`{"@context":"http://schema.org/","@type":"http://schema.org/Article","headline":"Goats","datePublished":"2021-03-12","author":"Ann Lee"}`,
		`{"@context":{"@vocab":"http://schema.org/"},"@type":"NewsArticle","headline":"Goats","datePublished":"2021-03-12","author":[{"@type":"Person","name":"Ann Lee"}]}`,
		`[{"@type":"WebSite","name":"Site"},{"@type":"NewsArticle","headline":"Goats","datePublished":"2021-03-12T10:00:00+01:00","author":{"name":"Ann Lee"}}]`,
		`{"@graph":[{"@type":"Person","@id":"#ann","name":"Ann Lee"},{"@type":"NewsArticle","headline":"Goats","datePublished":"2021-03-12","author":{"@id":"#ann"}}]}`,
		`{"@type":"NewsArticle","headline":"Goats","dateCreated":"2021-03-12","creator":"Ann Lee"}`,
		`{"@type":"NewsArticle","headline":"Goats","datePublished":"12.03.2021","author":{"@type":"Person","name":"Ann Lee"}}`,
		`{"@type":"NewsArticle","headline":"Goats","datePublished":"March 12, 2021","author":{"@type":"Person","name":"Ann Lee"}}`,
		`{"@type":"NewsArticle","mainEntityOfPage":{"@type":"WebPage"},"headline":"Goats","datePublished":"2021-03-12","author":{"@type":"Person","name":["Ann Lee"]}}`,
		`{"@type":"NewsArticle","headline":"Goats","datePublished":"2021-03-12","author":{"@type":"Person","givenName":"Ann","familyName":"Lee"}}`,
		// several values in one script, as JSON lines
		`{"@type":"WebSite","name":"Site"}
		{"@type":"NewsArticle","headline":"Goats","datePublished":"2021-03-12","author":"Ann Lee"}`,
		// a raw line break in a string, which JSON does not allow
		`{"@type":"NewsArticle","headline":"Goats","description":"One
two","datePublished":"2021-03-12","author":"Ann Lee"}`,
		// entities for quotes, and trailing commas
		`{&quot;@type&quot;:&quot;NewsArticle&quot;,&quot;datePublished&quot;:&quot;2021-03-12&quot;,&quot;author&quot;:[&quot;Ann Lee&quot;,],}`,
		// a null headline, a numeric one, and an image by reference
		`{"@graph":[{"@type":"ImageObject","@id":"#i","url":"https://example.com/g.jpg"},{"@type":"NewsArticle","headline":null,"name":2021,"image":{"@id":"#i"},"datePublished":"2021-03-12","author":{"name":"Ann Lee"}}]}`,
	} {
		m := read(t, `<html><head><script type="application/ld+json">`+ld+`</script></head><body><p>Text of the page here and there.</p></body></html>`, "")
		if m.Published != "2021-03-12" || len(m.Authors) != 1 || m.Authors[0] != "Ann Lee" {
			t.Errorf("%s: published %q authors %q", ld, m.Published, m.Authors)
		}
	}
}
