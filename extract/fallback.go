package extract

import "golang.org/x/net/html"

// ReasonShortItems (content) marks a block kept because the density
// classifier kept nothing on a page that has text but the title (and an
// author line under it), and the block was
// removed only for being short: a page made of one-word paragraphs, a
// list of names, a table of short cells. Such a page has no long text for
// the classifier to find, and an empty output tells a user nothing; its
// short blocks are the page. Blocks outside the region come back too when
// they sit beside the region's blocks (same parent, same element): on
// such a page the region is one item among equals. Blocks that are mostly
// links, or that any other rule or stage removed, stay removed.
const ReasonShortItems = "short-items"

// longItemWords is the length from which a block is running text, not a
// short item: a page with such a block is not a page of short items, and
// what the classifier made of it stands (measured: with this guard the
// fallback changes no page of the five extraction sets; without it,
// trafilatura loses 0.0008 F1 on pages that keep only their title).
const longItemWords = 20

// shortReasons are the density rules that remove a block for its length
// alone.
var shortReasons = map[string]bool{ReasonFragment: true, ReasonShortEdge: true, ReasonTail: true, ReasonLabel: true, ReasonDate: true,
	ReasonOutsideRegion: true}

// keepShortItems is the fallback of ReasonShortItems.
func (c *classifier) keepShortItems() {
	type kin struct {
		parent *html.Node
		tag    string
	}
	for _, b := range c.page.Blocks {
		if b.Label == Content && b.Words > 0 && !headOfPage(b) {
			return
		}
		if b.Words >= longItemWords && b.LinkDensity() <= maxLinkDensity {
			return // the page has running text the classifier judged: not a page of short items
		}
	}
	inside := map[kin]bool{} // where the region's blocks sit
	for _, b := range c.page.Blocks {
		if r := lastReason(b); b.Node != nil && r.Rule != ReasonOutsideRegion {
			inside[kin{b.Node.Parent, b.Node.Data}] = true
		}
	}
	var items []*Block
	for _, b := range c.page.Blocks {
		if b.Label != Boilerplate || b.Words == 0 || b.LinkDensity() > maxLinkDensity || !onlyDensity(b) {
			continue
		}
		r := lastReason(b)
		if !shortReasons[r.Rule] {
			continue
		}
		// The region of a page of short items is one of them: its
		// siblings of the same kind come back, not the rest of the page.
		if r.Rule == ReasonOutsideRegion && (b.Node == nil || !inside[kin{b.Node.Parent, b.Node.Data}]) {
			continue
		}
		items = append(items, b)
	}
	if len(items) < minShortItems {
		return // a line or two is no page of items: an empty page stays empty
	}
	for _, b := range items {
		b.Label = Content
		b.Vote(StageDensity, ReasonShortItems, 1)
	}
}

// minShortItems is the fewest short blocks that make a page of short
// items. Measured on wcxb-dev-even: bringing back a lone block turned two
// pages whose gold is empty (a product and a collection page) from F1 1
// to 0, where a page of 47 items gained 0.78.
const minShortItems = 3

// lastReason is the block's last vote (none: the zero Reason).
func lastReason(b *Block) Reason {
	if len(b.Reasons) == 0 {
		return Reason{}
	}
	return b.Reasons[len(b.Reasons)-1]
}

// headOfPage reports whether b was kept as the title or its author line.
func headOfPage(b *Block) bool {
	last := lastReason(b)
	return last.Stage == StageDensity && (last.Rule == ReasonTitle || last.Rule == ReasonAuthor)
}

// retakable reports whether a column rule (keepMainColumn,
// keepColumnFallback) may take b back: only the density stage removed it,
// and not as an overlay. A cookie notice or a dialog is over the page, not
// in its column: on wcxb-dev-even the column brought back 93 such blocks
// (2,300 words), of which one had its words in the gold.
func retakable(b *Block) bool {
	if b.Label != Boilerplate || b.Firm || !onlyDensity(b) {
		return false
	}
	if len(b.Reasons) > 0 {
		switch b.Reasons[0].Rule {
		case ReasonConsent, ReasonDialog:
			return false
		}
	}
	return true
}

// onlyDensity reports whether every vote on b is the density
// classifier's.
func onlyDensity(b *Block) bool {
	for _, r := range b.Reasons {
		if r.Stage != StageDensity {
			return false
		}
	}
	return true
}

// ReasonColumnFallback (content) marks a block of the main column kept
// because the page would otherwise be nearly empty: the blocks kept hold
// fewer than emptyWords words, while the main column (blocks that no
// page chrome and no boilerplate name holds; see keepMainColumn) holds
// at least twice that in blocks only the density stage removed. A page
// whose one dense region was a hero heading over a column of news items
// ("We're changing the world" over 800 words of press notes) kept
// nothing; its column is what the page says. Blocks mostly of links
// stay out unless they are headings, an item's linked title. The front
// of a news section (newsFront, of its own stories) stays as it is: its
// summaries point at the stories, and CleanPortalEval's golds leave them
// out ("this page contains no article"; with them its template F1 fell
// 0.9729 -> 0.9621).
const ReasonColumnFallback = "column-fallback"

// emptyWords is the kept text under which a page counts as nearly empty.
const emptyWords = 30

// keepColumnFallback is the fallback of ReasonColumnFallback.
func (c *classifier) keepColumnFallback() {
	kept := 0
	for _, b := range c.page.Blocks {
		if b.Label == Content {
			kept += b.Words
		}
	}
	if kept >= emptyWords || newsFront(c.page, true) {
		return
	}
	chrome := c.chromeTest()
	var column []*Block
	words := 0
	for _, b := range c.page.Blocks {
		if !retakable(b) || b.Words == 0 || b.hint < 0 {
			continue
		}
		if b.Kind != Heading && b.LinkDensity() > maxLinkDensity || chrome(b.Node) {
			continue
		}
		column = append(column, b)
		words += b.Words
	}
	if words < 2*emptyWords {
		return
	}
	for _, b := range column {
		b.Label = Content
		b.Vote(StageDensity, ReasonColumnFallback, 1)
	}
}
