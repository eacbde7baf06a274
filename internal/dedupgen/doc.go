// Package dedupgen generates large near-duplicate collections from real
// sentences, with exact gold pairs, for measuring winnow dedup at scale
// (from a few thousand documents to ten million).
//
// # Sources
//
// The sentences are the human gold texts of the shared extraction sets
// (see LoadSources): daniel-ru, daniel-zh, cleaneval-zh and wcxb-dev-even
// gold/*.txt, the Scrapinghub article bodies and the trafilatura set's
// "with" snippets (it has no whole gold texts, so its German is short
// fragments). Each source is split with dedup.Sentences, its language
// guessed (GuessLanguage), and each distinct sentence kept once in its
// language's pool. Languages with fewer than MinPoolSentences sentences
// are left out: with the current data the pools are English (about
// 70,000 sentences), Chinese (11,000), Russian (2,500) and German
// (1,400); Spanish, French, Portuguese and the snippets too short to
// guess are dropped.
//
// # Documents
//
// Document i is a pure function of the pool, the Options and i: nothing
// is kept between documents, so memory is the pool's (tens of MB)
// whatever the collection's size, and the output is byte-identical for
// the same options and data, on any number of goroutines.
//
// A base document draws its language in proportion to the pool sizes, so
// that every sentence is reused at about the same rate (drawing by source
// page count would give German, whose pool is small, a quarter of the
// documents and many chance overlaps). It takes a sentence count from a
// random source of that language (bounded to MaxSentences and to a least
// count: MinSentences, raised for small pools until chance overlaps stay
// unlikely even among ten million documents: 8 for English, 9 for
// Chinese, 11 for Russian and 12 for German with the current data),
// draws that many distinct random sentences of the pool, more while it
// has fewer than MinTokens tokens or one sentence holds over a fifth of
// them, and groups them in paragraphs after a one-sentence headline.
// Sentences are drawn independently, not as runs of a source: runs would
// make unrelated documents overlap whenever they start near each other.
//
// Documents are placed by a seeded permutation of positions (a Feistel
// network, no memory), so the members of a family are scattered over the
// file; URLs name a site of the document's language and the position.
//
// # Planted copies
//
// A share of the documents (Options.CopyRate, 2% by default) are
// originals with 1 to 3 near-copies each. A copy gets a main edit and,
// one time in three, a light second one; its kinds are recorded in the
// order they are made (EditKinds):
//
//   - add, drop, replace: sentences added, dropped or replaced by others;
//   - swap: one to three pairs of sentences exchange places;
//   - words: one to three words changed (one character in CJK text);
//   - trailer: one or two lines appended (copyright, share or source line);
//   - reprint: the text inside another site's boilerplate (site name,
//     menu and breadcrumb lines above; real sentences of the pool and
//     footer lines below), the same for every reprint on that site.
//
// The size of a main add, drop, replace or reprint edit is searched so
// that the copy's Jaccard with its original comes close to a target drawn
// evenly from [MinCopyJaccard, 1); the light kinds land where they land
// (mostly above 0.85). Every copy keeps a Jaccard of at least
// MinCopyJaccard (0.5) with its original, and below 1. Two copies of one
// family may be further apart. Originals carry no boilerplate.
//
// # Gold
//
// The gold file lists every pair of every family (original-copy and
// copy-copy) with its exact overlap under the project's target
// definition, which Compare, Jaccard and Shingles implement: tokens are
// the maximal runs of `[\p{L}\p{N}_]+` in the lower-cased text, features
// the SET of 3-token shingles, Jaccard = |A∩B|/|A∪B| and containment =
// |A∩B|/min(|A|,|B|).
//
// CJK caveat: with that token definition a run of Chinese (or Japanese)
// characters without spaces is ONE token, cut only by punctuation, so a
// Chinese "token" is a clause of 5-30 characters and a 3-token shingle
// spans about three clauses. Chinese shingles are therefore coarse: one
// changed character changes a whole token and the three shingles that hold
// it, and a short Chinese document has few shingles, so its Jaccard moves
// in large steps. The gold is computed exactly by the definition anyway;
// a method that splits CJK text into characters will see other figures.
//
// Unplanted pairs are far apart: a test compares all pairs of a
// 3,000-document collection and 500 unrelated documents and finds none
// at a Jaccard of 0.5 or more outside the planted families (the closest
// is near 0.15). At one million documents, a search of every Russian and
// German base-document pair sharing three sentences or more, and of
// 20,000 English and 20,000 Chinese documents against all others, found
// none over a Jaccard of 0.34; a few Russian and German pairs (17 among
// 36,000 documents searched) reach a containment of 0.5 to 0.6, none 0.8,
// which matters to containment-based text-reuse runs. At large
// sizes each pool sentence recurs in many documents (at ten million
// documents an English sentence is in about 3,000 of them), so methods
// that key on single sentences see far more chance candidates than in a
// real crawl; the shingle Jaccard of unrelated documents stays low.
package dedupgen
