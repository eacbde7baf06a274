package metadata

import (
	"net/url"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The links a page names its people by: a forum member's profile (the
// thread's starter) and an author's archive (a byline's last resort).
// Both are read by a walk of their own, and only on the pages that need
// them, not by the collector's walk: most pages have hundreds of links and
// neither kind.

// starter is a forum thread's starter: the member whose profile the
// first profile link after the headline names (the opening post's
// author), or, on a page without a headline, the first profile link. It
// reads at most maxStarterWalk nodes, and only on forum pages: most
// pages have hundreds of links and no member's.
func (c *collector) starter() string {
	n := c.doc
	if c.anchor != nil {
		n = c.anchor.node
	}
	for i := 0; n != nil && i < maxStarterWalk; i, n = i+1, following(n) {
		if n.Type != html.ElementNode || n.DataAtom != atom.A {
			continue
		}
		if h := attr(n, "href"); profileLink(h) && c.onSite(h) {
			if t := strings.TrimPrefix(c.shortText(n, maxMemberName), "@"); memberName(t) {
				return t
			}
		}
	}
	return ""
}

// maxStarterWalk bounds starter's walk.
const maxStarterWalk = 20000

// onSite says whether href links to a page of the page's own site: it is
// relative, or its host is c.host or under it. A member's profile or an
// author's archive elsewhere ("youtube.com/user/…") is not the page's.
// Without a known host every link is the site's.
func (c *collector) onSite(href string) bool {
	if c.host == "" {
		return true
	}
	u, err := url.Parse(strings.TrimSpace(href))
	if err != nil || u.Host == "" {
		return true // relative, or no address to tell by
	}
	h := strings.ToLower(u.Hostname())
	return h == c.host || strings.HasSuffix(h, "."+c.host)
}

// following is the node after n in document order, nil at the end.
func following(n *html.Node) *html.Node {
	if n.FirstChild != nil {
		return n.FirstChild
	}
	for ; n != nil; n = n.Parent {
		if n.NextSibling != nil {
			return n.NextSibling
		}
	}
	return nil
}

// archiveFolders are the folders of the addresses of authors' archives.
var archiveFolders = []string{"author", "authors", "autor", "autoren", "auteur", "auteurs", "writer", "writers",
	"contributor", "contributors"}

// authorArchive says whether href is the address of an author's archive,
// the list of what one author wrote, a blog's or a newsroom's link from
// a byline: a path with one of archiveFolders and a name after it
// ("/author/ann-lee/", "/blog/authors/ann-lee", "/autor/anna-schmidt").
// It runs on every link until one is found, so it jumps from "/" to
// "/" and compares a folder only after a letter one can open with.
func authorArchive(href string) bool {
	for i := strings.IndexByte(href, '/'); i >= 0; {
		rest := href[i+1:]
		if n := archiveFolder(rest); n > 0 && n+1 < len(rest) && !strings.ContainsRune("/?#", rune(rest[n+1])) {
			return strings.IndexAny(href[:i], "?#") < 0 // a path, not a query's value
		}
		j := strings.IndexByte(rest, '/')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// archiveFolder is the length of the folder of archiveFolders that
// rest opens with, a "/" after it; 0 for none.
func archiveFolder(rest string) int {
	if rest == "" {
		return 0
	}
	switch rest[0] | 0x20 {
	case 'a', 'w', 'c':
		for _, f := range archiveFolders {
			if len(rest) > len(f) && rest[len(f)] == '/' && hasPrefixFold(rest, f) {
				return len(f)
			}
		}
	}
	return 0
}

// archiveName is the name the page gives the author whose archive its
// first link to one with a text opens (authorArchive; an avatar's link
// has none): that link's text, or the shortest text of another link to
// that address that the first one holds ("Martin Junker" in "Alles von
// Martin Junker"; not "More Posts"); "" for none. It walks the page,
// which only the pages whose author nothing else names need: most links
// are no archive's, and reading every link's address on every page
// costs more than the walk.
func (c *collector) archiveName() string {
	var href, name string
	for d := range c.doc.Descendants() {
		if d.Type != html.ElementNode || d.DataAtom != atom.A {
			continue
		}
		h := attr(d, "href")
		switch {
		case name == "":
			if authorArchive(h) && c.onSite(h) && !inAuthorList(d) && !inMenu(d) {
				href, name = h, c.shortText(d, maxLine)
			}
		case h == href:
			if t := c.shortText(d, maxLine); t != "" && len(t) < len(name) && strings.Contains(name, t) {
				name = t
			}
		}
	}
	return name
}

// inMenu says whether n stands in a site's menu (kinds.menu): an
// author's archive among its sections ("Hong Kong Actuary" under a
// menu's "Columns") names no author of the page.
func inMenu(n *html.Node) bool {
	for a := n.Parent; a != nil; a = a.Parent {
		if a.Type == html.ElementNode && readKinds(a).menu {
			return true
		}
	}
	return false
}

// inAuthorList says whether the link n to an author's archive is an item
// of a list of authors (a site's columnists in its footer): the list item
// it stands in, up to three levels up, has a neighbouring item with such
// a link too.
func inAuthorList(n *html.Node) bool {
	li := n.Parent
	for i := 0; li != nil && li.DataAtom != atom.Li; i++ {
		if i == 3 {
			return false
		}
		li = li.Parent
	}
	if li == nil {
		return false
	}
	prev, next := li.PrevSibling, li.NextSibling
	for prev != nil && prev.Type != html.ElementNode {
		prev = prev.PrevSibling
	}
	for next != nil && next.Type != html.ElementNode {
		next = next.NextSibling
	}
	for _, sib := range [...]*html.Node{prev, next} {
		if sib == nil || sib.DataAtom != atom.Li {
			continue
		}
		for d := range sib.Descendants() {
			if d.Type == html.ElementNode && d.DataAtom == atom.A && authorArchive(attr(d, "href")) {
				return true
			}
		}
	}
	return false
}

// maxMemberName is the longest member's name read from a profile link.
const maxMemberName = 40

// profileSegments name the folder of members' profiles in a forum's or a
// Q&A site's addresses: "/members/ann.1234/" (XenForo), "/u/ann"
// (Discourse, Lemmy), "/users/5/ann" (Stack Exchange), "/profile/12-ann/"
// (Invision).
var profileSegments = set("members", "member", "u", "user", "users", "profile", "profiles")

// profileLink says whether href links to one member's profile: a path
// whose folder is one of profileSegments with a name after it, or a
// forum script's profile page ("memberlist.php?mode=viewprofile&u=5"
// of phpBB, "member.php?u=5" of vBulletin, "profile.php?id=5" of
// FluxBB, "index.php?action=profile;u=5" of SMF).
func profileLink(href string) bool {
	if href == "" || !strings.Contains(href, "rofile") && !strings.Contains(href, "ember") && !strings.Contains(href, "/u") {
		return false // a cheap test first: the walk asks it of every link after the headline
	}
	u, err := url.Parse(strings.TrimSpace(href))
	if err != nil {
		return false
	}
	path, query := strings.ToLower(u.Path), strings.ToLower(u.RawQuery)
	if strings.Contains(query, "viewprofile") || strings.Contains(query, "action=profile") ||
		query != "" && (strings.HasSuffix(path, "member.php") || strings.HasSuffix(path, "profile.php")) {
		return true
	}
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for i := 0; i+1 < len(segs); i++ {
		if profileSegments[segs[i]] && segs[i+1] != "" {
			switch segs[i+1] {
			case "login", "register", "signup", "sign_up", "logout", "password", "new":
				return false
			}
			return true
		}
	}
	return false
}

// memberName says whether t, the text of a profile link, is a member's
// name: one to three words of letters, digits and "._-'", with a letter,
// and no word that says something else ("Guest", "Moderator", a month).
func memberName(t string) bool {
	if len(t) < 2 || len(t) > maxMemberName || len(strings.Fields(t)) > 3 || !mayBeName(t) {
		return false
	}
	letter := false
	for _, r := range t {
		switch {
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsDigit(r), r == ' ', r == '.', r == '_', r == '-', r == '\'':
		default:
			return false
		}
	}
	return letter
}
