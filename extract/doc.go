// Package extract turns the raw bytes of a crawled page into its main
// content.
//
// Extract decodes the bytes to UTF-8 (Decode: byte-order mark, HTTP
// charset, valid UTF-8, a <meta> charset anywhere in the head, then
// detection with gogs/chardet re-ranked by how plausible each decoding
// reads), parses them with golang.org/x/net/html, cuts the body into
// blocks (text between block-level boundaries, with shallow features:
// words, link words, kind, tag path, class and id hints) and labels each
// block Content or Boilerplate with the density classifier. Every label
// carries the reasons for it.
//
// The density classifier follows Kohlschütter, Fankhauser and Nejdl,
// "Boilerplate Detection using Shallow Text Features" (WSDM 2010), and the
// description of boilerpipe and of local, content-based boilerplate
// removal in seed 000 (Sergukova, "Поиск дубликатов. Кластеризация"): find
// the dense runs of text, grow the main-content region around them, and
// cut navigation, related-story teasers, share bars, comments and
// footers. Scripts written without spaces are measured in characters.
//
// Other stages (per-site rules, site templates, rendered layout) label
// blocks before the classifier runs: call Parse, let them set Label and
// add a Reason, then Classify; density never overrides an earlier label.
//
// # Limits
//
// Input longer than Options.MaxPageBytes is cut (Page.Truncated). A tree
// nested deeper than the 512 elements x/net/html accepts is rebuilt flat
// from the token stream, and the page gets a warning instead of an error.
// The reader passed to ExtractReader is never closed.
package extract
