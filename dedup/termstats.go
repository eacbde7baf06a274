package dedup

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
)

// TermStatsVersion is the version of the stored form of TermStats. A
// stored file of another version is refused (ErrStatsVersion): the caller
// rebuilds the statistics and re-signs its collection.
const TermStatsVersion = 1

// ErrStatsVersion reports a stored TermStats of another version.
var ErrStatsVersion = errors.New("dedup: term statistics of another version")

var termStatsMagic = [4]byte{'W', 'N', 'T', 'S'}

// WriteTo stores the statistics: a magic, the version, the number of
// documents, then each term with its document frequency, terms sorted, so
// equal statistics give equal bytes.
func (st *TermStats) WriteTo(w io.Writer) (int64, error) {
	if st.freq != nil {
		return 0, errors.New("dedup: term statistics from a DocFreq hold no terms to store")
	}
	bw := bufio.NewWriter(w)
	var n int64
	put := func(b []byte) {
		m, _ := bw.Write(b)
		n += int64(m)
	}
	var buf [binary.MaxVarintLen64]byte
	uvarint := func(x uint64) { put(buf[:binary.PutUvarint(buf[:], x)]) }
	put(termStatsMagic[:])
	uvarint(TermStatsVersion)
	uvarint(uint64(st.Docs))
	terms := make([]string, 0, len(st.DF))
	for t := range st.DF {
		terms = append(terms, t)
	}
	sort.Strings(terms)
	uvarint(uint64(len(terms)))
	for _, t := range terms {
		uvarint(uint64(len(t)))
		put([]byte(t))
		uvarint(uint64(st.DF[t]))
	}
	return n, bw.Flush()
}

// ReadTermStats reads statistics stored by WriteTo.
func ReadTermStats(r io.Reader) (*TermStats, error) {
	br := bufio.NewReader(r)
	var magic [4]byte
	if _, err := io.ReadFull(br, magic[:]); err != nil || magic != termStatsMagic {
		return nil, fmt.Errorf("dedup: not a term statistics file")
	}
	uvarint := func(what string) (uint64, error) {
		x, err := binary.ReadUvarint(br)
		if err != nil {
			return 0, fmt.Errorf("dedup: term statistics: %s: %w", what, err)
		}
		return x, nil
	}
	v, err := uvarint("version")
	if err != nil {
		return nil, err
	}
	if v != TermStatsVersion {
		return nil, fmt.Errorf("%w: %d, want %d", ErrStatsVersion, v, TermStatsVersion)
	}
	docs, err := uvarint("documents")
	if err != nil {
		return nil, err
	}
	count, err := uvarint("terms")
	if err != nil {
		return nil, err
	}
	if count > docs*1<<16+1<<20 {
		return nil, fmt.Errorf("dedup: term statistics: %d terms for %d documents", count, docs)
	}
	st := &TermStats{Docs: int(docs), DF: make(map[string]int, min(count, 1<<12))}
	for range count {
		l, err := uvarint("term length")
		if err != nil {
			return nil, err
		}
		if l > 1<<16 {
			return nil, fmt.Errorf("dedup: term statistics: a term of %d bytes", l)
		}
		b := make([]byte, l)
		if _, err := io.ReadFull(br, b); err != nil {
			return nil, fmt.Errorf("dedup: term statistics: term: %w", err)
		}
		df, err := uvarint("document frequency")
		if err != nil {
			return nil, err
		}
		if df == 0 || df > docs {
			return nil, fmt.Errorf("dedup: term statistics: term %q in %d of %d documents", b, df, docs)
		}
		st.DF[string(b)] = int(df)
	}
	return st, nil
}

// StaleShare is the share of the collection that may change (documents
// added plus documents deleted since the statistics were frozen) before
// the statistics no longer describe it.
const StaleShare = 0.25

// Stale reports whether frozen statistics should be rebuilt (and the
// collection re-signed) after added and deleted documents: when the change
// exceeds StaleShare of the documents they were built from, or when they
// were built from none.
func (st *TermStats) Stale(added, deleted int) bool {
	if st.Docs == 0 {
		return added > 0
	}
	return float64(added+deleted) > StaleShare*float64(st.Docs)
}
