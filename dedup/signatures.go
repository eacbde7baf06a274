package dedup

import (
	"crypto/md5"
	"encoding/binary"
	"hash/crc32"
	"math"
	"slices"
	"sort"
	"strings"
)

// The signatures of seed 000 ("algorithms for search in large sets", after
// Zelenkov and Segalovich): each document gets one value, and two
// documents with the same value are duplicates. MD5 is the exact baseline;
// TF*IDF, Long Sent and Heavy Sent hash a small, stable part of the
// document, so edits elsewhere leave the signature unchanged.

// TermStats are the collection statistics the global signatures use: the
// number of documents and in how many of them each term occurs. They are
// either a map of terms (NewTermStats, Add, ReadTermStats) or a frozen
// count of the terms' hashes (TermStatsFromDocFreq), which a collection
// of any size can be counted into within a memory budget.
type TermStats struct {
	Docs int
	DF   map[string]int
	freq *DocFreq
}

// TermStatsFromDocFreq returns the statistics of a collection whose
// documents' TermKeys were counted in f: for the terms of those
// documents, the same as NewTermStats over them. They cannot be stored
// (WriteTo) or added to; DF is empty.
func TermStatsFromDocFreq(f *DocFreq) *TermStats {
	return &TermStats{Docs: f.Docs(), DF: map[string]int{}, freq: f}
}

// TermKeys are the distinct hashes of a document's terms, what a
// DocFreqCounter counts for TermStatsFromDocFreq.
func TermKeys(toks []string) []uint64 {
	ks := make([]uint64, len(toks))
	for i, t := range toks {
		ks[i] = tokenHash(t)
	}
	slices.Sort(ks)
	return slices.Compact(ks)
}

// df is the number of documents with term.
func (st *TermStats) df(term string) int {
	if st.freq != nil {
		return st.freq.Count(tokenHash(term))
	}
	return st.DF[term]
}

// NewTermStats counts document frequencies over tokenised documents.
func NewTermStats(docs [][]string) *TermStats {
	st := &TermStats{DF: make(map[string]int)}
	for _, toks := range docs {
		st.Add(toks)
	}
	return st
}

// Add counts one more document (into DF: not for statistics from a
// DocFreq).
func (st *TermStats) Add(toks []string) {
	st.Docs++
	seen := make(map[string]bool, len(toks))
	for _, t := range toks {
		if !seen[t] {
			seen[t] = true
			st.DF[t]++
		}
	}
}

// IDF is log((N+1)/(df+1)): like IDF.Weight, positive for every term and
// largest for a term the collection has not seen.
func (st *TermStats) IDF(term string) float64 {
	return math.Log(float64(st.Docs+1) / float64(st.df(term)+1))
}

// Weights returns TW = TF*IDF of each term of a document, TF being the
// term's share of the document's tokens.
func (st *TermStats) Weights(toks []string) map[string]float64 {
	w := make(map[string]float64, len(toks))
	for _, t := range toks {
		w[t]++
	}
	for t, n := range w {
		w[t] = n / float64(len(toks)) * st.IDF(t)
	}
	return w
}

// SignMD5 is the first 8 bytes of the MD5 of the normalised tokens: equal
// only for texts that normalise to the same words.
func SignMD5(toks []string) (uint64, bool) {
	if len(toks) == 0 {
		return 0, false
	}
	sum := md5.Sum([]byte(strings.Join(toks, " ")))
	return binary.BigEndian.Uint64(sum[:8]), true
}

// SignTFIDF is the CRC32 of the L terms of highest TF*IDF (ties broken by
// the term), joined in alphabetical order so that only the set counts.
func SignTFIDF(toks []string, st *TermStats, l int) (uint64, bool) {
	if len(toks) == 0 || l <= 0 {
		return 0, false
	}
	// The l best in one scan, kept in order (weight down, then term up),
	// rather than a sort of every term.
	type weighted struct {
		term string
		w    float64
	}
	top := make([]weighted, 0, l+1)
	for t, w := range st.Weights(toks) {
		i := len(top)
		for i > 0 && (top[i-1].w < w || top[i-1].w == w && top[i-1].term > t) {
			i--
		}
		if i >= l {
			continue
		}
		top = slices.Insert(top, i, weighted{t, w})
		if len(top) > l {
			top = top[:l]
		}
	}
	terms := make([]string, len(top))
	for i, x := range top {
		terms[i] = x.term
	}
	sort.Strings(terms)
	return uint64(crc32.ChecksumIEEE([]byte(strings.Join(terms, "\x00")))), true
}

// SentenceTokens splits text into sentences (Sentences) and normalises
// each; sentences with no tokens are dropped.
func (n *Normalizer) SentenceTokens(text string) [][]string {
	var out [][]string
	for _, s := range Sentences(text) {
		if toks := n.Tokens(s); len(toks) > 0 {
			out = append(out, toks)
		}
	}
	return out
}

// SignLongSent is the CRC32 of the k longest sentences (in tokens; ties
// broken by their text), joined longest first.
func SignLongSent(sents [][]string, k int) (uint64, bool) {
	return signTopSentences(sents, k, func(s []string) float64 { return float64(len(s)) })
}

// SignHeavySent is the CRC32 of the k sentences of highest weight, the
// weight of a sentence being the sum of its terms' TF*IDF in the document.
func SignHeavySent(sents [][]string, st *TermStats, k int) (uint64, bool) {
	var all []string
	for _, s := range sents {
		all = append(all, s...)
	}
	w := st.Weights(all)
	return signTopSentences(sents, k, func(s []string) float64 {
		sum := 0.0
		for _, t := range s {
			sum += w[t]
		}
		return sum
	})
}

func signTopSentences(sents [][]string, k int, score func([]string) float64) (uint64, bool) {
	if len(sents) == 0 || k <= 0 {
		return 0, false
	}
	type scored struct {
		text  string
		score float64
	}
	ss := make([]scored, len(sents))
	for i, s := range sents {
		ss[i] = scored{strings.Join(s, " "), score(s)}
	}
	sort.Slice(ss, func(i, j int) bool {
		if ss[i].score != ss[j].score {
			return ss[i].score > ss[j].score
		}
		return ss[i].text < ss[j].text
	})
	parts := make([]string, 0, k)
	for _, s := range ss[:min(k, len(ss))] {
		parts = append(parts, s.text)
	}
	return uint64(crc32.ChecksumIEEE([]byte(strings.Join(parts, "\x00")))), true
}

// LexRand is seed 000's Lex Rand: a dictionary of the collection without
// its most and least frequent terms, thinned by 30% in several different
// ways. A document gets one signature per thinned dictionary whose overlap
// with its terms is large enough: the hash of that overlap, tagged with the
// dictionary's number. One shared signature makes two documents duplicates,
// so a difference in a term that one of the dictionaries lacks is forgiven.
// The dictionaries are not listed: a term's document frequency says
// whether it is in the dictionary, and a hash of the term and a
// dictionary's number whether that copy keeps it, so statistics that
// cannot list their terms (TermStatsFromDocFreq) serve as well.
type LexRand struct {
	st           *TermStats
	dictionaries int
	minDF        int
	maxDF        float64 // a term in more documents is left out
	cut          uint64  // a dictionary keeps a term whose thinning hash is >= cut
	seed         uint64
	minOverlap   int
}

// LexRandOptions are Lex Rand's settings; zero fields take the defaults.
type LexRandOptions struct {
	Dictionaries int     // default 10
	Drop         float64 // share of the dictionary each copy leaves out; default 0.3
	MaxDF        float64 // terms in more than this share of the documents are left out; default 0.05
	MinDF        int     // terms in fewer documents are left out; default 2
	MinOverlap   int     // fewer terms in common with a dictionary give no signature; default 5
	Seed         uint64
}

// NewLexRand builds the thinned dictionaries from collection statistics.
// The thinning is a hash of the term and the dictionary's number, so the
// same statistics always give the same dictionaries. The statistics are
// kept, not copied: they must not change while the LexRand is used.
func NewLexRand(st *TermStats, o LexRandOptions) *LexRand {
	if o.Dictionaries <= 0 {
		o.Dictionaries = 10
	}
	if o.Drop <= 0 || o.Drop >= 1 {
		o.Drop = 0.3
	}
	if o.MaxDF <= 0 {
		// Measured on the generated collection of winnow eval dedup (815
		// texts, J >= 0.8): F 0.18 at 0.2, 0.57 at 0.05, 0.57 at 0.02,
		// 0.45 at 0.01. A dictionary of common words breaks on any edit.
		o.MaxDF = 0.05
	}
	if o.MinDF <= 0 {
		o.MinDF = 2
	}
	if o.MinOverlap <= 0 {
		o.MinOverlap = 5
	}
	return &LexRand{st: st, dictionaries: o.Dictionaries, minDF: o.MinDF, maxDF: o.MaxDF * float64(st.Docs),
		cut: uint64(o.Drop * float64(1<<32)), seed: o.Seed, minOverlap: o.MinOverlap}
}

// Sign returns a document's signatures, at most one per dictionary.
func (lr *LexRand) Sign(toks []string) []uint64 {
	// The document's distinct terms of the unthinned dictionary, sorted:
	// each dictionary's overlap is a subsequence.
	seen := make(map[string]bool, len(toks))
	var terms []string
	for _, t := range toks {
		if seen[t] {
			continue
		}
		seen[t] = true
		if df := lr.st.df(t); df >= lr.minDF && float64(df) <= lr.maxDF {
			terms = append(terms, t)
		}
	}
	if len(terms) < lr.minOverlap {
		return nil
	}
	sort.Strings(terms)
	hs := make([]uint64, len(terms))
	for i, t := range terms {
		hs[i] = tokenHash(t)
	}
	var sigs []uint64
	in := make([]string, 0, len(terms))
	for k := range lr.dictionaries {
		in = in[:0]
		for i, t := range terms {
			if mix64(hs[i]^lr.seed^uint64(k+1)*0x9e3779b97f4a7c15)>>32 >= lr.cut {
				in = append(in, t)
			}
		}
		if len(in) < lr.minOverlap {
			continue
		}
		h := uint64(crc32.ChecksumIEEE([]byte(strings.Join(in, "\x00"))))
		sigs = append(sigs, uint64(k)<<32|h)
	}
	return sigs
}

// Signature settings: L terms for TF*IDF, and the number of sentences of
// Long Sent and Heavy Sent.
const (
	SignatureTerms     = 6
	SignatureSentences = 3
)

// NeedsStats reports whether a signature method weighs terms by the
// collection's statistics (TF*IDF, Heavy Sent, Lex Rand).
func (m Method) NeedsStats() bool {
	return m == MethodTFIDF || m == MethodHeavySent || m == MethodLexRand
}

// Signer signs texts with one of seed 000's signature methods and frozen
// collection statistics.
type Signer struct {
	method Method
	norm   *Normalizer
	stats  *TermStats
	lr     *LexRand
}

// NewSigner prepares method m; st may be nil for the methods that need no
// statistics.
func NewSigner(m Method, norm *Normalizer, st *TermStats) *Signer {
	if st == nil {
		st = &TermStats{DF: map[string]int{}}
	}
	s := &Signer{method: m, norm: norm, stats: st}
	if m == MethodLexRand {
		s.lr = NewLexRand(st, LexRandOptions{})
	}
	return s
}

// Sign returns a text's signatures: none, one, or (Lex Rand) up to ten.
func (s *Signer) Sign(text string) []uint64 { return s.sign(text, nil) }

// sign is Sign with the text's tokens when the caller has them already.
func (s *Signer) sign(text string, toks []string) []uint64 {
	tokens := func() []string {
		if toks == nil {
			toks = s.norm.Tokens(text)
		}
		return toks
	}
	var sig uint64
	var ok bool
	switch s.method {
	case MethodMD5:
		sig, ok = SignMD5(tokens())
	case MethodTFIDF:
		sig, ok = SignTFIDF(tokens(), s.stats, SignatureTerms)
	case MethodLongSent:
		sig, ok = SignLongSent(s.norm.SentenceTokens(text), SignatureSentences)
	case MethodHeavySent:
		sig, ok = SignHeavySent(s.norm.SentenceTokens(text), s.stats, SignatureSentences)
	case MethodLexRand:
		return s.lr.Sign(tokens())
	}
	if ok {
		return []uint64{sig}
	}
	return nil
}

// SignCollection signs every text with a signature method (the collection
// statistics come from the texts themselves): no, one, or (Lex Rand) up
// to ten signatures per text. Other methods get no signatures.
func SignCollection(m Method, texts []string, norm *Normalizer) [][]uint64 {
	sigs := make([][]uint64, len(texts))
	if !m.Signed() {
		return sigs
	}
	var st *TermStats
	var toks [][]string
	if m.NeedsStats() {
		st = &TermStats{DF: map[string]int{}}
		toks = make([][]string, len(texts))
		for i, t := range texts {
			toks[i] = norm.Tokens(t)
			st.Add(toks[i])
		}
	}
	s := NewSigner(m, norm, st)
	for i, t := range texts {
		if toks != nil {
			sigs[i] = s.sign(t, toks[i])
		} else {
			sigs[i] = s.Sign(t)
		}
	}
	return sigs
}
