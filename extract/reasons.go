package extract

// The reasons of the density stage. Each block that the density classifier
// labels gets a Reason with Stage "density" and one of these Rule strings
// (a second one when a later rule changes its label: short-edge, tail,
// short-items, author, lead; the last one decides); they appear in the JSON block output (`"rule": "outside-region"`)
// and their values never change. The classifier itself is described at the
// top of density.go: boilerpipe's method (Kohlschütter, Fankhauser, Nejdl,
// "Boilerplate Detection using Shallow Text Features", WSDM 2010), as seed
// 000 summarises it. Figures after a commit hash are the shared sets' F1
// before -> after the commit that set the threshold (evaluate/testdata/
// baseline.json); "SWDE survival" is the share of SWDE book attributes that
// stay in the text (evaluate/swde.go). extract/testdata/reasons/ holds one
// small page per reason, checked by TestReasons.
//
// Where to look:
//
//   - share bars, social buttons, comment sections, related-story boxes,
//     menus and footers by name: [ReasonClassPrefix] ("class:class~share");
//     the same without a telling name: [ReasonLinkDensity];
//   - "Related", "Comments", "Read also" and what follows them: [ReasonStopper],
//     [ReasonStopperSection];
//   - headline-and-summary links to other stories: [ReasonTeaser];
//   - bylines, dates, "Share", "Print" around the text: [ReasonShortEdge],
//     [ReasonDate], [ReasonFragment], [ReasonTail];
//   - pictures: [ReasonCaption], [ReasonCredit], [ReasonLabel];
//   - what is kept: [ReasonInRegion], [ReasonTitle], [ReasonLead],
//     [ReasonAuthor], [ReasonSpecList]; on pages of many items, the main
//     column: [ReasonMainColumn], [ReasonShortItems]; on a page left
//     nearly empty, [ReasonColumnFallback];
//   - customers' reviews on a product page: [ReasonReviews];
//   - cookie and consent banners: [ReasonConsent]; dialogs: [ReasonDialog];
//   - text the page gives twice (a copy per screen size): [ReasonRepeat];
//     a template's filler text: [ReasonPlaceholder].
const (
	// ReasonStopper (boilerplate) marks a short block, in the region, that
	// is the title of a boilerplate section: "Related articles",
	// "Comments", "Share this", "Lesen Sie auch", "Читайте также",
	// "相关新闻" (stopperTitles in stoppers.go, matched as a prefix of the
	// lower-cased text). Seed 000 counts recommendation blocks as
	// boilerplate; a title is how sites introduce them when their
	// containers carry no telling name. A stopper counts only after
	// stopperAfterWords words of article text (a "Comments (3)" link
	// above the article is not the end of it), and only when it is short
	// (isStopper: at most 8 effective words, 6 for a non-heading), so
	// that a sentence that happens to start with "Related" is not one.
	// 553e85e.
	ReasonStopper = "stopper"

	// ReasonStopperSection (boilerplate) marks the blocks of the section a
	// [ReasonStopper] title opens: those after it in the smallest element
	// holding the title and more, up to the next heading of the same or a
	// higher level. A title that comes first in its own container cuts the
	// whole container (bd107f9: scrapinghub 0.9637 -> 0.9654, daniel-ru
	// 0.8763 -> 0.8785, trafilatura 0.9210 -> 0.9216).
	ReasonStopperSection = "stopper-section"

	// ReasonTitle (content) marks the article's headline: the heading (or
	// an element whose class says "title") that best matches the page's
	// <title> or og:title, kept wherever it sits. A candidate scores 0.5
	// plus its titleMatch cover when the cover is at least 0.3 (else 0),
	// plus 0.3 for an h1 and 0.1 inside the region, and the best wins
	// from 0.5 up: a heading must match the page title, and an h1 or a
	// place in the region only breaks ties. A section heading such as
	// "Amsterdam", which covers little of "The 7th Amsterdam Light
	// Festival", is not the title. The golds of daniel-* and
	// CleanPortalEval hold the headline. 38cadec (word match: daniel-ru
	// 0.879 -> 0.881).
	ReasonTitle = "title"

	// ReasonSpecList (content) marks the items of a "Label: value" list, a
	// product's details ("ISBN-13: 9780515147926", "Publisher: Jove
	// Books"), wherever they sit: at least three sibling items of one list
	// or table, each a label of at most 30 characters with two letters, a
	// colon and a value, without links and at most 20 words, one value at
	// least with letters (a counter list, "Comments: 0", has none). A
	// block of several lines qualifies alone with three such lines making
	// two thirds of its lines and links on at most three quarters of its
	// words. Set by data survival on SWDE books (933ed84; 961b744: SWDE
	// survival 0.797 -> 0.935; 19282e0: 0.9956).
	ReasonSpecList = "spec-list"

	// ReasonOutsideRegion (boilerplate) marks a block outside the
	// main-content region. This is boilerpipe's step as seed 000 tells
	// it: find the large runs of text, add the neighbours while the text
	// and link weights fit, and cut the rest of the tree. The region is
	// the element with the largest sum of block weights (negative weights
	// at negativeShare, one half, so that an infobox cannot cancel the
	// paragraphs around it), narrowed to a child holding 90% of it; a
	// container the site names as the article body wins from namedShare
	// (one half) of the best weight; sibling subtrees with more than a
	// fifth of the region's weight (and more than 10) join it, as in
	// readability. 1843290 (body names and damped negative sums:
	// scrapinghub 0.9391 -> 0.9509, trafilatura 0.8926 -> 0.9102,
	// daniel-ru 0.8369 -> 0.8538).
	ReasonOutsideRegion = "outside-region"

	// ReasonAuthor (content) takes back an author line that
	// [ReasonOutsideRegion] cut right under the title ("By: Craig
	// Groeschel", "Edited By: Carrie Turansky"; authorLine in
	// stoppers.go): a heading or paragraph of at most 24 words, without a
	// boilerplate name, among the three blocks after the title. On a book
	// or product page the author is data of the page (961b744: SWDE
	// survival 0.797 -> 0.935 with the multi-line spec lists; 19282e0).
	// A bare "by Name" line that then opens the kept text is a byline to
	// [ReasonShortEdge], which runs after this rule and cuts it again.
	ReasonAuthor = "author"

	// ReasonLead (content) takes back the lead or standfirst that sites
	// put in the article header, between the title and the first kept
	// block, outside the body container the region grew from. Only
	// running text qualifies: a paragraph of at least 12 effective words
	// (fullWeightWords' order of size) with sentence punctuation, links on
	// at most 30% of its words, no boilerplate name, not a teaser, date,
	// byline or credit, at most 12 blocks after a title that matched the
	// page title well. 3f3b4ef; paragraphs only since 4462871.
	ReasonLead = "lead"

	// ReasonClassPrefix (boilerplate) opens the reason of a block in the
	// region whose nearest named ancestor below the region says
	// boilerplate: the rest of the rule is that name, "class~share",
	// "id~comment", "class~related", or the tag of a <nav>, <aside> or
	// <footer>. This is the rule that drops share bars and social
	// buttons, comment threads, related-story boxes, newsletter boxes,
	// cookie notices and ad slots by their class or id (negativeParts,
	// negativeSuffixes and negativeTokens in hints.go). Boilerpipe uses no
	// markup names; readability-style extractors and seed 000
	// ("navigation, recommendation and advertising blocks, header and
	// footer") show they are strong evidence. A quotation keeps its text
	// whatever its embed is called (aba6062), and a name over most of the
	// page's running text is overruled (overruleShare; cf3c92f:
	// trafilatura 0.9216 -> 0.9256).
	ReasonClassPrefix = "class:"

	// ReasonLinkDensity (boilerplate) marks a block of the region with
	// links on more than maxLinkDensity (one half) of its words: menus,
	// tag lists, share bars and link lists that no name gives away. Its
	// score is minus the link density. Boilerpipe's classifier first tests
	// the current block's link density against 0.33 (WSDM 2010); in-text links are
	// common in articles, so winnow waits for a half. Headings are spared
	// (a linked headline), and so are digest items with sentences: at
	// least digestWords effective words, digestPunct punctuation marks and
	// at most digestLinkDensity links (fd4bac8).
	ReasonLinkDensity = "link-density"

	// ReasonCaption (boilerplate) marks a caption in the region: the text
	// of a <figcaption> or <caption> and everything inside one. Captions
	// describe pictures; the benchmarks' golds and a corpus's readers want
	// the article's own text (c9e43db).
	ReasonCaption = "caption"

	// ReasonForm (boilerplate) marks a block inside a <form> or
	// <fieldset> below the region element: a comment, search or
	// newsletter form. A form that wraps the whole page, as ASP.NET pages
	// do, sits above the region and does not count (c9e43db), nor does a
	// form around <article> elements that hold the block: a forum's
	// replies wrapped for moderators' check boxes.
	ReasonForm = "form"

	// ReasonFragment (boilerplate) marks a paragraph, quote or caption of
	// the region with at most fragmentWords (two) words and no sentence
	// punctuation: "Share", "Print", "Advertisement", "12". Headings,
	// table cells and list items are spared: short ones are normal there.
	// 4462871, with [ReasonCredit]: scrapinghub 0.9507 -> 0.9572,
	// trafilatura 0.9105 -> 0.9143.
	ReasonFragment = "fragment"

	// ReasonLabel (boilerplate) marks a short line of text straight in a
	// <div>, neither heading nor sentence: more than two words, fewer than
	// labelWords (12) effective words, no punctuation. Such lines label
	// pictures and widgets ("Harbour at low tide in the evening light");
	// prose is set in paragraphs or ends with a full stop (ad10ddf).
	ReasonLabel = "label"

	// ReasonDate (boilerplate) marks a date or time line in the region: at
	// most dateWords (10) words, a third of them numbers (dateLike), not a
	// heading or a table cell ("Posted: Fri 6:45 PM, Feb 16, 2018").
	// fa16b09; 5ba91b2 raised the limit from 6 words to 10.
	ReasonDate = "date"

	// ReasonCredit (boilerplate) marks a picture credit ("Photo: Hau
	// Dinh, AP", "Getty Images", "©") of at most 100 bytes, or a caption
	// that a wire service signed ("(AP Photo/...)", "(Reuters/...)") of
	// at most 400 bytes (credit in stoppers.go). Headings are spared.
	// 4462871, with [ReasonFragment].
	ReasonCredit = "credit"

	// ReasonTeaser (boilerplate) marks the blocks of a teaser: a linked
	// headline with at most maxTeaserWords (80) words of summary under it
	// (a pointer to another story), a list of three or more items four in
	// five of which link with a sixth to a half of their words, or a
	// definition list of three or more headline-summary pairs. Many
	// teasers together outweigh a short article, so their weight is cut
	// before the region is grown; those left in the region go here.
	// 553e85e, ead2435, 9448be4.
	ReasonTeaser = "teaser"

	// ReasonLink (boilerplate) marks a block of the region that sits
	// inside a link and has fewer than linkWords (10) effective words: a
	// "Next article" button, a linked banner line. Present since the
	// first classifier (299c490).
	ReasonLink = "link"

	// ReasonInRegion (content) marks a block of the region that no rule
	// above took: the article text. Its score is the block's weight
	// (words, text density per wrapped line after boilerpipe's §4.2, link
	// density, names).
	ReasonInRegion = "in-region"

	// ReasonShortEdge (boilerplate) trims, at the start of the kept text,
	// blocks that are not sentences: no punctuation and fewer than
	// edgeWords (10) effective words ("Energy desk"), or a date or byline
	// line ("By Jane Doe | Nov. 18, 2019"). Headings and the title stay
	// and the trim steps over them, so a byline between the title and the
	// body goes too; the first other block that is a sentence, or one
	// that an earlier stage made Firm, stops it. (The end of the kept
	// text is [ReasonTail]'s.) 1843290 (edge trimming: scrapinghub
	// 0.9391 -> 0.9509 with the region changes of that commit).
	ReasonShortEdge = "short-edge"

	// ReasonTail (boilerplate) cuts the sign-off after the article's last
	// longer block: headings with nothing under them, paragraphs and
	// captions of fewer than tailWords (10) effective words, or of fewer
	// than three times that with links on a quarter of their words, and
	// list items of the latter kind ("Further information", a login
	// prompt, a promotion). Code, quotes, plain lists and tables are
	// spared (fab6219). f995fb1: cleaneval-zh 0.9357 -> 0.9399, daniel-ru
	// 0.8728 -> 0.8767, daniel-zh 0.9509 -> 0.9531, trafilatura 0.9183 ->
	// 0.9207.
	ReasonTail = "tail"
)

// Thresholds of the rules above that live in labelInside, trimEdges and
// stopperCuts; see each reason for where the number comes from.
const (
	// stopperAfterWords: a stopper title ends the article only after this
	// much article text ([ReasonStopper]).
	stopperAfterWords = 30
	// digestWords, digestPunct and digestLinkDensity spare a linked digest
	// item with sentences from [ReasonLinkDensity].
	digestWords       = 25
	digestPunct       = 2
	digestLinkDensity = 0.75
	// fragmentWords is the longest [ReasonFragment].
	fragmentWords = 2
	// labelWords bounds a [ReasonLabel] (effective words, exclusive).
	labelWords = 12
	// dateWords is the longest [ReasonDate] line, in words.
	dateWords = 10
	// linkWords bounds a [ReasonLink] (effective words, exclusive).
	linkWords = 10
	// edgeWords bounds a [ReasonShortEdge] (effective words, exclusive).
	edgeWords = 10
)

// reasonLegend explains each reason above in one line, for the legend of
// the debug page (WriteDebugHTML). The doc comments above are the full
// story; these lines only say what the reader is looking at.
var reasonLegend = map[string]string{
	ReasonStopper:        `a short title such as "Related" or "Comments" that opens a boilerplate section`,
	ReasonStopperSection: "a block of the section that a stopper title opens",
	ReasonTitle:          "the headline: the heading that best matches the page's <title>, kept wherever it sits",
	ReasonSpecList:       `an item of a "Label: value" list of product details, kept wherever it sits`,
	ReasonOutsideRegion:  "outside the main-content region, the element with the most text weight",
	ReasonAuthor:         "an author line right under the title, taken back from outside the region",
	ReasonLead:           "the lead between the title and the text, taken back from outside the region",
	ReasonClassPrefix:    "under an element whose class, id or tag says boilerplate (share, comment, related, nav, aside, footer)",
	ReasonLinkDensity:    "links on more than half of its words: a menu, tag list or link list",
	ReasonCaption:        "a picture caption (<figcaption>, <caption>)",
	ReasonForm:           "inside a form in the region: comments, search, newsletter",
	ReasonFragment:       `at most two words and no punctuation: "Share", "Print", "12"`,
	ReasonLabel:          "a short unpunctuated line straight in a <div>: a picture or widget label",
	ReasonDate:           "a date or time line",
	ReasonCredit:         `a picture credit: "Photo: ...", "Getty Images", "(AP Photo/...)"`,
	ReasonTeaser:         "a linked headline with a short summary: a pointer to another story",
	ReasonLink:           `a short block that is all one link: "Next article", a banner line`,
	ReasonInRegion:       "article text: in the region, and no rule above took it",
	ReasonShortEdge:      "a short line, byline or date at the start of the kept text",
	ReasonTail:           "a short sign-off line after the article's last longer block",
	ReasonShortItems:     "a page of short items only: kept rather than leave the page empty",
	ReasonMainColumn:     "a page of many items or sections: the main column outside page chrome is kept",
	ReasonColumnFallback: "the page kept under 30 words: its main column outside page chrome is kept rather than leave it nearly empty",
	ReasonReviews:        "on a product page, under an element named for reviews or testimonials",
	ReasonConsent:        "a cookie or consent notice in a dialog or banner",
	ReasonDialog:         "in a dialog (role dialog, aria-modal, <dialog>) that holds less than half of the page",
	ReasonRepeat:         "a run of kept blocks that repeats an earlier run: a copy for another screen size, a quoted post",
	ReasonPlaceholder:    `filler text of a template: "Lorem ipsum dolor sit amet"`,
}
