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
	} {
		m := read(t, `<html><head><script type="application/ld+json">`+ld+`</script></head><body><p>Text of the page here and there.</p></body></html>`, "")
		if m.Published != "2021-03-12" || len(m.Authors) != 1 || m.Authors[0] != "Ann Lee" {
			t.Errorf("%s: published %q authors %q", ld, m.Published, m.Authors)
		}
	}
}
