// Package pipeline is the one place that knows the order of winnow's
// stages, and runs them over many pages.
//
// [Stages] describes the labelling stages of one page, in order: the
// page's site rule (package xpathrules), the rendered layout (package
// render), the template of its site group (package infholder) and the
// density classifier (package extract). Every entry point labels pages
// through it, so each evaluation scores what a run ships.
//
// A batch run ([Run], [RunFile]) reads WARC files, JSONL files and
// folders of pages ([ReadInputs]) in two passes (DESIGN.md, "Batch runs
// in two passes"): pass 1 ([SiteLearner]) samples the pages of each site
// group and learns its template ([Sites]); pass 2 labels every page on
// the workers and writes one [Record] per input page, in input order,
// with a [Summary]. [ProcessPages] does the same over pages held in
// memory. Near-duplicate detection is the last stage ([Dedup],
// [DedupOptions], or FileOptions.Dedup of RunFile): it clusters the
// records' texts and marks each record canonical or a duplicate. It
// streams (dedup.Streamer) in memory bounded by DedupOptions.MaxMemory:
// it reads the records twice, and between the passes only those that
// have candidates.
package pipeline
