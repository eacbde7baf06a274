package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/internal/jsonl"
)

// IndexRecord is one non-empty line of the JSONL input of an index add or
// query: its URL and text, or in Err why it could not be read (not JSON,
// or no "url").
type IndexRecord struct {
	Line      int // 1-based line number in the input
	URL, Text string
	Err       string
}

// ScanIndexRecords calls fn for every non-empty line of r, a JSONL input
// of records with "url" and "text" (winnow run's records, or any JSONL);
// name names r in errors. It stops at fn's first error. r is not closed.
func ScanIndexRecords(r io.Reader, name string, fn func(IndexRecord) error) error {
	return jsonl.Scan(r, name, func(line int, b []byte) error {
		var rec struct {
			URL  string `json:"url"`
			Text string `json:"text"`
		}
		ir := IndexRecord{Line: line}
		switch err := json.Unmarshal(b, &rec); {
		case err != nil:
			ir.Err = err.Error()
		case rec.URL == "":
			ir.Err = "no url"
		default:
			ir.URL, ir.Text = rec.URL, rec.Text
		}
		return fn(ir)
	})
}

// IndexAddSummary counts what IndexAdd did.
type IndexAddSummary struct {
	// Added counts the documents the index now holds from this input (a
	// URL given twice counts once per batch it is in).
	Added int
	// Unreadable counts the lines that were not records with a URL;
	// Unsigned the records with nothing to sign (no words).
	Unreadable, Unsigned int
	// Replaced counts the added documents whose URL the index held
	// already (the old entry is gone), and Repeated the records whose URL
	// came again later in the same batch (only the last one is kept).
	Replaced, Repeated int
	// Store are the settings of the index.
	Store dedup.StoreOptions
}

// String formats the summary as winnow index add prints it.
func (s IndexAddSummary) String() string {
	out := fmt.Sprintf("%d records added, %d unreadable, %d with nothing to sign (%v)", s.Added, s.Unreadable, s.Unsigned, s.Store)
	if s.Replaced > 0 || s.Repeated > 0 {
		out += fmt.Sprintf("; %d replaced a document of the same URL held before, %d were replaced by a later record of the same URL", s.Replaced, s.Repeated)
	}
	return out
}

// IndexAdd adds every record of r (see ScanIndexRecords) to st in synced
// batches of IndexAddBatch: after a crash, every record counted as added
// is in the index. A URL the index holds is replaced. Each unreadable line
// is reported on log as "name:line: skipped: reason" (log may be nil) and
// left out. When ctx is cancelled, the records read so far are added and
// IndexAdd returns ctx's error. The summary counts what was added, also
// when an error stopped it.
func IndexAdd(ctx context.Context, r io.Reader, name string, st *dedup.Store, log io.Writer) (IndexAddSummary, error) {
	sum := IndexAddSummary{Store: st.Options()}
	var batch []dedup.Entry
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		docs, err := st.AddBatch(batch)
		if err != nil {
			return err
		}
		urls := map[string]bool{}
		for _, e := range batch {
			urls[e.URL] = true
		}
		sum.Added += len(docs)
		sum.Unsigned += len(urls) - len(docs)
		sum.Repeated += len(batch) - len(urls)
		for _, d := range docs {
			if d.Replaced {
				sum.Replaced++
			}
		}
		batch = batch[:0]
		return nil
	}
	err := ScanIndexRecords(r, name, func(rec IndexRecord) error {
		if err := ctx.Err(); err != nil {
			if ferr := flush(); ferr != nil {
				return ferr
			}
			return err
		}
		if rec.Err != "" {
			sum.Unreadable++
			if log != nil {
				fmt.Fprintf(log, "%s:%d: skipped: %s\n", name, rec.Line, rec.Err)
			}
			return nil
		}
		batch = append(batch, dedup.Entry{URL: rec.URL, Text: rec.Text})
		if len(batch) == IndexAddBatch {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	return sum, err
}

// IndexMatch is one held document that a queried record matches.
type IndexMatch struct {
	URL string `json:"url"`
	// Distance is the SimHash Hamming distance (SimHash indexes only).
	Distance *int `json:"distance,omitempty"`
	// Similarity is the estimated Jaccard similarity (MinHash, and
	// SimHash when verified), 1 - Distance/64 (SimHash unverified) or the
	// share of signatures in common.
	Similarity float64 `json:"similarity"`
	// Verified says the similarity was checked on the texts' sketches
	// (see dedup.Match).
	Verified bool `json:"verified"`
}

// IndexAnswer is the answer to one queried record, one JSON line of
// winnow index query.
type IndexAnswer struct {
	URL        string       `json:"url,omitempty"`
	Line       int          `json:"line"`
	Duplicates []IndexMatch `json:"duplicates"`
	// Error says why the record was not looked up: an unreadable line,
	// or "no words to sign".
	Error string `json:"error,omitempty"`
}

// IndexQuerySummary counts what an index query did, and how long its
// lookups took.
type IndexQuerySummary struct {
	// Queried counts the records looked up; WithDuplicates those that
	// matched a held document, and Matches the matches.
	Queried, WithDuplicates, Matches int
	// Errors counts the records that could not be read or signed.
	Errors int
	// P50, P99 and Max are the lookup times (signing included) of the
	// queried records, in microseconds.
	P50, P99, Max float64
	// Candidates are the held documents checked per lookup (see
	// dedup.QueryStats): mean, 99th percentile, maximum.
	CandidatesMean               float64
	CandidatesP99, CandidatesMax int
	// Keys are the lookup keys read per lookup: mean and 99th percentile.
	KeysMean float64
	KeysP99  int
	// Held counts the lookups answered from a held document's kept
	// near-duplicates rather than every band (dedup.QueryStats.Held).
	Held int
}

// String formats the summary as winnow index query prints it.
func (s IndexQuerySummary) String() string {
	return fmt.Sprintf("%d records queried, %d with duplicates (%d matches), %d errors; lookup p50 %.0f µs, p99 %.0f µs, max %.0f µs; candidates checked per lookup mean %.1f, p99 %d, max %d; keys read mean %.0f, p99 %d; %d answered from a held document's near-duplicates",
		s.Queried, s.WithDuplicates, s.Matches, s.Errors, s.P50, s.P99, s.Max, s.CandidatesMean, s.CandidatesP99, s.CandidatesMax, s.KeysMean, s.KeysP99, s.Held)
}

// IndexQuery looks up every record of r (see ScanIndexRecords) in st and
// writes one IndexAnswer per record to w as a JSON line, in input order.
// A record that cannot be read or signed gives an answer with Error; other
// failures stop the query. It stops with ctx's error when ctx is
// cancelled. The summary keeps 16 bytes per record queried.
func IndexQuery(ctx context.Context, r io.Reader, name string, st *dedup.Store, w io.Writer) (IndexQuerySummary, error) {
	var sum IndexQuerySummary
	var times []time.Duration
	var cands, keys []int
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	err := ScanIndexRecords(r, name, func(rec IndexRecord) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		a := IndexAnswer{URL: rec.URL, Line: rec.Line, Duplicates: []IndexMatch{}, Error: rec.Err}
		if a.Error == "" {
			start := time.Now()
			qs, err := st.QueryStats(dedup.Entry{URL: rec.URL, Text: rec.Text}, func(m dedup.Match) {
				im := IndexMatch{URL: m.URL, Similarity: m.Similarity, Verified: m.Verified}
				if m.Distance >= 0 {
					im.Distance = &m.Distance
				}
				a.Duplicates = append(a.Duplicates, im)
			})
			switch {
			case errors.Is(err, dedup.ErrNoSignature):
				a.Error = "no words to sign"
			case err != nil:
				return err
			default:
				times = append(times, time.Since(start))
				cands = append(cands, qs.Candidates)
				keys = append(keys, qs.Keys)
				if qs.Held {
					sum.Held++
				}
			}
		}
		if a.Error != "" {
			sum.Errors++
		} else if len(a.Duplicates) > 0 {
			sum.WithDuplicates++
			sum.Matches += len(a.Duplicates)
		}
		return enc.Encode(a)
	})
	sum.Queried = len(times)
	if n := len(times); n > 0 {
		slices.Sort(times)
		slices.Sort(cands)
		µs := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }
		sum.P50, sum.P99, sum.Max = µs(times[n/2]), µs(times[n*99/100]), µs(times[n-1])
		mean := func(xs []int) float64 {
			total := 0
			for _, x := range xs {
				total += x
			}
			return float64(total) / float64(len(xs))
		}
		sum.CandidatesMean, sum.KeysMean = mean(cands), mean(keys)
		slices.Sort(keys)
		sum.CandidatesP99, sum.CandidatesMax = cands[n*99/100], cands[n-1]
		sum.KeysP99 = keys[n*99/100]
	}
	return sum, err
}

// IndexDelete removes the documents of urls from st and returns the URLs
// it did not hold.
func IndexDelete(st *dedup.Store, urls []string) (missing []string, err error) {
	for _, u := range urls {
		ok, err := st.Delete(u)
		if err != nil {
			return missing, err
		}
		if !ok {
			missing = append(missing, u)
		}
	}
	return missing, nil
}

// WriteIndexStats writes st's statistics (documents, bytes on disk,
// method and layout) to w as one JSON line.
func WriteIndexStats(w io.Writer, st *dedup.Store) error {
	s, err := st.Stats()
	if err != nil {
		return err
	}
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(b))
	return err
}
