// Package metadata reads what a crawled page says about itself: its
// headline, authors, publication and modification dates, site name,
// description, canonical address, lead image, categories, tags and
// language, each with the source it came from.
//
// Read walks a parsed tree once; a Collector gathers the same while
// package extract's segmenter walks the tree (extract.Options.Visitor), so
// that the pipeline walks each page once. The sources are trusted in this
// order:
// JSON-LD (schema.org Article and its kin, Product, DiscussionForumPosting,
// WebPage, WebSite, BreadcrumbList; @graph, arrays and mainEntity are
// followed), microdata and RDFa, OpenGraph and Twitter cards, other
// <meta> tags (author, dc.*, citation_*), <time> elements, author and
// date lines near the headline, the page's address and, last, its text.
// Broken JSON-LD is repaired where it can be (trailing commas, comment
// wrappers, raw line breaks, HTML entities) and reported in Warnings
// where it cannot; so are dates that cannot be right (no such day, before
// 1995, in the future), which are passed over for the next source.
//
// The headline is the page's first <h1> when a structured title agrees
// with it, else the structured title with the site's name cut off.
// Dates are calendar days as the page states them; no time zone is
// converted. Dates are read in the languages of langid's set, Solar Hijri
// dates (Iran, Afghanistan) as the common-era day; a date line by the
// headline that gives the time since posting ("3 hours ago", "vor 2
// Tagen") is read only against the page's fetch time (Options.Fetched).
package metadata
