// Package winnowbeam runs winnow over a crawl too large for one machine,
// as an Apache Beam pipeline: the same stages as winnow run --dedup, as
// transforms over package pipeline, on any Beam runner (Prism in the
// process for tests; Flink, Spark or Dataflow in production).
//
// Single pages parallelise by themselves; winnow's two cross-page stages
// are shuffles. Every element that crosses a shuffle is small: no page
// body is ever shuffled, and a WARC file is read again where its pages
// are needed.
//
//  1. Files: the manifest's paths, numbered in manifest order, spread
//     over the workers (Reshuffle: Flink does not split inputs itself).
//  2. Scan: each file is read; every page gives its site (host), its
//     place (file number, record number) and URL; each file its number
//     of records.
//  3. Sites: a combiner per site keeps the site's first SitePageCap
//     pages by place (a deterministic stand-in for winnow run's input
//     order) and each directory of its URLs with a count: what
//     infholder.GroupKeys needs. The site's groups follow.
//  4. Samples: each file is read again and parses only the pages its
//     sites sampled (infholder samples: block signatures and words).
//  5. Templates: per site, the samples in place order, at most
//     SamplesPerGroup per group, learn the groups' templates
//     (pipeline.Options.LearnTemplates, as winnow run); the site's
//     groups and templates go to every file that holds its pages.
//  6. Records: each file is read a last time and every page labelled
//     with its group's template (pipeline.Stages.Record): the record
//     winnow run writes, numbered by its place in winnow run's output.
//  7. Near-duplicates (optional): candidate keys of every record's text
//     (pipeline.CandidateKeyer: MinHash LSH band keys, or the leading
//     bits of each of SimHash's permuted tables with the fingerprint)
//     are shuffled; records sharing a key are linked (with SimHash, when
//     within K bits), and the linked components found by alternating
//     large-star and small-star rounds over the links (Kiveris et al.,
//     SoCC 2014; see components.go), spread over the workers; each output shard gets
//     whole components, and near-duplicate detection runs on the shard
//     (pipeline.DedupPart): clustering is decided within a component,
//     so each record gets the fields winnow run --dedup gives it.
//  8. Shards: records-SSSSS-of-NNNNN.jsonl[.gz], each written whole by
//     one worker, in record order, to a temporary name and renamed: a
//     retried bundle writes the same bytes again.
//
// Site rules (Settings.Rules) travel with the settings and apply in
// step 6; the pages sampled in step 4 also give each rule's content
// words, whose median per rule (its typical length, as winnow run takes
// it over its sampled pages) goes to step 6 as a side input. Saved
// templates (Settings.TemplatesDir) are loaded and saved in step 5
// through Beam's filesystems. The layout pass (winnow run --render)
// stays local-only: it needs a headless browser beside the pages.
package winnowbeam
