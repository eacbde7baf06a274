package metadata_test

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/html"

	"github.com/winnow-go/winnow/metadata"
)

func ExampleRead() {
	page := `<html lang="en-GB"><head>
<title>Rivers in flood after record rain | The Courier</title>
<meta property="og:site_name" content="The Courier">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle",
 "headline":"Rivers in flood after record rain","datePublished":"2024-02-11T07:30:00+00:00",
 "author":[{"@type":"Person","name":"Ann Lee"},{"@type":"Person","name":"Tom Reyes"}],}</script>
</head><body><h1>Rivers in flood after record rain</h1><p>Text.</p></body></html>`
	doc, _ := html.Parse(strings.NewReader(page))
	u, _ := url.Parse("https://courier.example/news/rivers")
	m := metadata.Read(doc, metadata.Input{URL: u}, metadata.Options{Now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)})
	fmt.Println(m.Title)
	fmt.Println(m.Authors)
	fmt.Println(m.Published, m.PublishedAt, m.Sources["published"])
	fmt.Println(m.SiteName, m.Lang)
	// Output:
	// Rivers in flood after record rain
	// [Ann Lee Tom Reyes]
	// 2024-02-11 2024-02-11T07:30:00+00:00 json-ld
	// The Courier en
}

func ExampleMetadata_FrontMatter() {
	m := metadata.Metadata{Title: "Rivers in flood: a record", Authors: []string{"Ann Lee"}, Published: "2024-02-11", Lang: "en"}
	fmt.Print(m.FrontMatter())
	// Output:
	// ---
	// title: 'Rivers in flood: a record'
	// authors:
	//     - Ann Lee
	// published: "2024-02-11"
	// lang: en
	// ---
}
