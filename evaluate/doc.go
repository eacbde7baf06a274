// Package evaluate loads the evaluation data in ../shared/data and scores
// winnow (or any system's texts) with each dataset's own metric, exactly
// as ../shared/data/README.md defines it, so that figures compare with
// the published ones:
//
//   - scrapinghub: Unicode \w+ tokens, 4-token shingles as a multiset,
//     counts normalised per page, F1 of the mean precision and mean recall
//     (the Scrapinghub article-extraction benchmark);
//   - trafilatura: "with" and "without" snippets after white-space
//     normalisation, micro-averaged counts (the trafilatura benchmark);
//   - daniel-ru, daniel-zh, cleaneval-zh: lower-cased bags of words with
//     each CJK character a token, mean of page F1.
//
// The scorer reproduces the stored per-page scores of go-trafilatura and
// go-readability in reference/ to 1e-4 (TestScorerReproducesReference),
// and PairedBootstrap gives a confidence interval for the difference
// between two systems on the same pages.
package evaluate
