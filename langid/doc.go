// Package langid names the language of a page's text: an ISO 639-1 code
// and a confidence between 0 and 1.
//
// It wraps lingua-go (github.com/pemistahl/lingua-go, Peter M. Stahl's
// n-gram identifier with a rule engine for scripts and unique letters)
// restricted to DefaultLanguages, the 40 most common languages of web
// crawls, in lingua's low-accuracy mode (trigram models only). Three
// measurements set these choices (the package README figures are in the
// repository README, "The record", lang):
//
//   - Memory. lingua keeps its models in package-level maps, loaded on first
//     use per language and n-gram length. The trigram models of the 40
//     languages take about 80 MB of resident memory; all 75 of lingua's
//     languages take about 115 MB, and the high-accuracy mode's uni- to
//     fivegram models 1.4 GB. The issue allows 100 MB.
//   - Time. lingua scores every trigram of its input against every
//     candidate language of the input's script (27 for Latin text here), and
//     an input of more than about 100 trigrams sends its softmax through
//     arbitrary-precision arithmetic (shopspring/decimal's ExpTaylor and Pow),
//     14 ms for 4 kB of English. Identify therefore gives lingua at most
//     MaxChunks pieces of at most ChunkRunes runes taken across the text,
//     and averages their confidences.
//   - Chinese and Japanese. lingua's rule engine names a text Japanese as
//     soon as one kana stands among Chinese characters (a brand name, a の
//     in a headline). Identify decides text written mostly in ideographs,
//     kana and Hangul by the share of each script instead (cjk.go).
//   - Common words. Most texts are named by their commonest words before
//     lingua runs (words.go, the short-word method): a text whose first
//     200 words are a fifth of them one language's articles, prepositions and
//     pronouns, twice any other language's (1.5 times when the page
//     declares that language), is that language. A close language shares
//     most of a language's words (Russian and Bulgarian, Indonesian and
//     Malay), so the words only one list has decide between them: a lead
//     of about seven such words names a text that declares no language, and
//     of about five confirms a declared one. A declaration the words
//     neither confirm nor overrule by a factor of two goes to lingua, whose
//     confidence decides whether the text overrides it. On the 3,299
//     pages of the shared sets lingua runs on 169 pages (352 before the
//     close-language rules), 1 of Scrapinghub's 181.
//     When the words do not decide but leave two to four languages in
//     the running (the declared one and those within a factor of two of
//     the best count: Indonesian and Malay, Russian and Bulgarian), lingua
//     scores those alone, with a detector built for them on first use.
//
// An Identifier is safe for concurrent use; Default builds one lazily and
// shares it.
package langid
