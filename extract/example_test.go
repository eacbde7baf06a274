package extract_test

import (
	"fmt"

	"github.com/winnow-go/winnow/extract"
)

func ExampleExtract() {
	page := []byte(`<html><head><title>Tides</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>
<article><h1>Tides</h1>
<p>The tide rises and falls twice a day, pulled by the moon and, less strongly, by the sun.</p>
<p>Spring tides, the largest, come when the sun and the moon pull in a line; neap tides come between them.</p>
<div class="share"><a href="#">Share</a> <a href="#">Tweet</a></div></article>
<footer>© Coastline Herald</footer></body></html>`)
	p, err := extract.Extract(page, extract.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Text())
	// Output:
	// Tides
	//
	// The tide rises and falls twice a day, pulled by the moon and, less strongly, by the sun.
	//
	// Spring tides, the largest, come when the sun and the moon pull in a line; neap tides come between them.
}

func ExampleDecode() {
	// "Привет" in KOI8-R, with no declaration anywhere.
	d, err := extract.Decode([]byte("<p>\xf0\xd2\xc9\xd7\xc5\xd4, \xcd\xc9\xd2! \xfc\xd4\xcf \xd4\xc5\xd3\xd4.</p>"), "")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(d.Text), d.Charset, d.Via)
	// Output: <p>Привет, мир! Это тест.</p> koi8-r detection
}

// A page stored through a wrong codec reaches winnow as well-formed
// UTF-8 mojibake; Extract restores it and says so in the warnings.
// Options.KeepMojibake leaves it.
func ExampleExtract_mojibake() {
	page := []byte(`<html><body><article>
<p>Itâ€™s spring: the cafÃ© by the harbour opens again â€” with the terrace and its view of the tides over the bay.</p>
</article></body></html>`)
	p, err := extract.Extract(page, extract.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Text())
	fmt.Println(p.Warnings)
	// Output:
	// It’s spring: the café by the harbour opens again — with the terrace and its view of the tides over the bay.
	// [mojibake: 3 characters restored (UTF-8 read as windows-1252)]
}
