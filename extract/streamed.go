package extract

import (
	"bytes"
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Streaming server rendering (React's renderToPipeableStream and the
// frameworks built on it) sends a page in pieces: the shell comes first,
// with a placeholder where a part was not ready (<template id="B:0"> for
// a suspended boundary, followed by its loading fallback, or <template
// id="P:3"> for a segment), and each part follows at the end of the body
// in <div hidden id="S:0">, with a script that moves it into place:
// $RC("B:0","S:0") for a boundary, $RS("S:0","P:3") for a segment. A
// crawler that does not run scripts sees the parts hidden and the
// fallbacks ("Loading…") where the text belongs. revealStreamed does
// what those scripts do: every part a completion call names takes its
// placeholder's place, a boundary's fallback is removed, and the hidden
// part is gone. A part no call names stays hidden, as it is in a
// browser.

// streamedCall matches the completion calls of streamed parts.
var streamedCall = regexp.MustCompile(`\$R([CS])\(\s*"([^"]+)"\s*,\s*"([^"]+)"`)

// hasStreamed is a cheap test on the raw page for revealStreamed's calls
// ("$RC(" or "$RS("), in one pass over the bytes.
func hasStreamed(text []byte) bool {
	for {
		i := bytes.Index(text, []byte("$R"))
		if i < 0 || i+3 >= len(text) {
			return false
		}
		if (text[i+2] == 'C' || text[i+2] == 'S') && text[i+3] == '(' {
			return true
		}
		text = text[i+2:]
	}
}

// revealStreamed moves the streamed parts of doc into their places; it
// returns how many it moved.
func revealStreamed(doc *html.Node) int {
	ids := map[string]*html.Node{}
	var moves [][2]string // part id, placeholder id
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if id := attr(n, "id"); id != "" && len(id) > 2 && id[1] == ':' {
				if _, dup := ids[id]; !dup {
					ids[id] = n
				}
			}
			if n.DataAtom == atom.Script && n.FirstChild != nil && n.FirstChild.Type == html.TextNode {
				for _, m := range streamedCall.FindAllStringSubmatch(n.FirstChild.Data, -1) {
					if m[1] == "C" {
						moves = append(moves, [2]string{m[3], m[2]})
					} else {
						moves = append(moves, [2]string{m[2], m[3]})
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	moved := 0
	for _, mv := range moves {
		part, place := ids[mv[0]], ids[mv[1]]
		if part == nil || place == nil || part.Parent == nil || place.Parent == nil ||
			!strings.HasPrefix(mv[0], "S:") || !hasAttr(part, "hidden") || isAncestor(part, place) {
			continue
		}
		parent := place.Parent
		if strings.HasPrefix(mv[1], "B:") {
			removeFallback(place)
		}
		for c := part.FirstChild; c != nil; {
			next := c.NextSibling
			part.RemoveChild(c)
			parent.InsertBefore(c, place)
			c = next
		}
		parent.RemoveChild(place)
		part.Parent.RemoveChild(part)
		delete(ids, mv[0])
		delete(ids, mv[1])
		moved++
	}
	return moved
}

// removeFallback removes the loading fallback that follows a boundary's
// placeholder, up to the comment that closes the boundary ("/$"), with
// boundaries nested in the fallback skipped whole. Without a closing
// comment nothing is removed.
func removeFallback(place *html.Node) {
	depth := 0
	var end *html.Node
	for n := place.NextSibling; n != nil && end == nil; n = n.NextSibling {
		if n.Type != html.CommentNode {
			continue
		}
		switch n.Data {
		case "$", "$?", "$!":
			depth++
		case "/$":
			if depth == 0 {
				end = n
			}
			depth--
		}
	}
	if end == nil {
		return
	}
	for n := place.NextSibling; n != end; {
		next := n.NextSibling
		n.Parent.RemoveChild(n)
		n = next
	}
}
