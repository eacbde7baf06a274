package dedup

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"
	"golang.org/x/text/unicode/norm"

	"github.com/winnow-go/winnow/internal/textseg"
)

// NumberPolicy says what normalisation does with numbers. Seed 000 names
// the trade-off: numbers tell apart pages that differ only in a price or
// a date, and make a counter or a timestamp look like a change.
type NumberPolicy uint8

const (
	KeepNumbers NumberPolicy = iota // numbers are tokens like words
	DropNumbers                     // numbers are removed
	MaskNumbers                     // every number becomes the same token
)

// SpacePolicy says how word boundaries are used.
type SpacePolicy uint8

const (
	// KeepSpaces shingles words (and CJK characters).
	KeepSpaces SpacePolicy = iota
	// RemoveSpaces joins all tokens and shingles characters, as seed 000
	// and seed 002 do: it survives letter-spaced and glued text.
	RemoveSpaces
)

// Options configure a Normalizer. The zero value lower-cases, applies NFKC,
// keeps numbers and words of any length, and shingles three words.
type Options struct {
	KeepCase   bool         // do not lower-case
	Numbers    NumberPolicy // default KeepNumbers
	Spaces     SpacePolicy  // default KeepSpaces
	MinWordLen int          // drop words shorter than this many letters (seed 002 uses 3); 0 keeps all
	// Shingles are the word-shingle sizes; several sizes mix (3 and 5 is a
	// good mixture for SimHash). Default {3}.
	Shingles []int
	// CharGram is the character n-gram size with RemoveSpaces. Default 5.
	CharGram int
}

// ErrBadOptions is wrapped by every error of Options.Validate.
var ErrBadOptions = errors.New("dedup: bad options")

// EnsureDefaults fills the zero fields with their defaults.
func (o *Options) EnsureDefaults() {
	if len(o.Shingles) == 0 {
		o.Shingles = []int{3}
	}
	if o.CharGram == 0 {
		o.CharGram = 5
	}
}

// Validate reports every broken constraint in one error.
func (o Options) Validate() error {
	var errs []error
	for _, n := range o.Shingles {
		if n < 1 || n > 16 {
			errs = append(errs, fmt.Errorf("%w: shingle size %d not in 1..16", ErrBadOptions, n))
		}
	}
	if o.CharGram < 0 || o.CharGram > 32 {
		errs = append(errs, fmt.Errorf("%w: char n-gram %d not in 1..32", ErrBadOptions, o.CharGram))
	}
	if o.MinWordLen < 0 {
		errs = append(errs, fmt.Errorf("%w: negative MinWordLen", ErrBadOptions))
	}
	if o.Numbers > MaskNumbers || o.Spaces > RemoveSpaces {
		errs = append(errs, fmt.Errorf("%w: unknown policy", ErrBadOptions))
	}
	return errors.Join(errs...)
}

// Normalizer turns texts into tokens and weighted features. It is safe for
// concurrent use.
type Normalizer struct {
	opts Options
}

// NewNormalizer checks and completes the options.
func NewNormalizer(opts Options) (*Normalizer, error) {
	opts.Shingles = append([]int(nil), opts.Shingles...)
	opts.EnsureDefaults()
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	sort.Ints(opts.Shingles)
	return &Normalizer{opts: opts}, nil
}

// Tokens normalises text and splits it into tokens: runs of letters and
// digits (punctuation, symbols and pseudo-graphics separate them), each
// CJK character alone, numbers as the policy says, short words dropped.
func (n *Normalizer) Tokens(text string) []string {
	var toks []string
	n.scan(text, func(tok string) { toks = append(toks, tok) })
	return toks
}

// scan calls fn for every token of the normalised text, in order. The
// tokens are substrings of one normalised string: no per-token allocation.
func (n *Normalizer) scan(text string, fn func(tok string)) {
	if !nfkcStable(text) {
		text = norm.NFKC.String(text)
	}
	start := -1
	digits := true
	upper := false // the current token has an upper-case letter
	emit := func(end int) {
		tok := text[start:end]
		start = -1
		isNum := digits
		digits = true
		if upper && !n.opts.KeepCase {
			tok = strings.ToLower(tok) // only the tokens that need it
		}
		upper = false
		if isNum {
			switch n.opts.Numbers {
			case DropNumbers:
				return
			case MaskNumbers:
				tok = "0"
			}
		} else if n.opts.MinWordLen > 0 && utf8.RuneCountInString(tok) < n.opts.MinWordLen {
			return
		}
		fn(tok)
	}
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		switch {
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'):
			if start < 0 {
				start = i
			}
			digits = false
			upper = upper || r <= 'Z'
		case r >= '0' && r <= '9':
			if start < 0 {
				start = i
			}
		case r < utf8.RuneSelf:
			if start >= 0 {
				emit(i)
			}
		case r >= 0x0410 && r <= 0x044F || r == 0x0401 || r == 0x0451: // А-я, Ё, ё
			if start < 0 {
				start = i
			}
			digits = false
			upper = upper || r < 0x0430 || r == 0x0401
		case textseg.IsCJK(r):
			if start >= 0 {
				emit(i)
			}
			fn(text[i : i+size])
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			if start < 0 {
				start = i
			}
			if !unicode.IsDigit(r) {
				digits = false
			}
			upper = upper || unicode.IsUpper(r) || unicode.IsTitle(r)
		default:
			if start >= 0 {
				emit(i)
			}
		}
		i += size
	}
	if start >= 0 {
		emit(len(text))
	}
}

// nfkcStable reports, cheaply, that NFKC cannot change the tokens of
// text: every rune is in a range that NFKC leaves alone (ASCII, Latin-1
// and Latin Extended-A letters, basic Cyrillic, kana, unified ideographs,
// Hangul syllables) or is punctuation that stays punctuation (CJK and
// full-width punctuation, dashes and quotes), which separates tokens
// either way. Anything else goes through norm.NFKC.
func nfkcStable(text string) bool {
	for _, r := range text {
		switch {
		case r < 0x80,
			r == 0xA0, r == 0xA7, r == 0xA9, r == 0xAB, r == 0xAE, r == 0xB0, r == 0xB1,
			r == 0xB6, r == 0xB7, r == 0xBB,
			r >= 0xC0 && r <= 0xFF,
			r >= 0x100 && r <= 0x17E && r != 0x132 && r != 0x133 && r != 0x13F && r != 0x140 && r != 0x149,
			r >= 0x0400 && r <= 0x04FF,
			r >= 0x2010 && r <= 0x2016, r >= 0x2018 && r <= 0x2023,
			r >= 0x3000 && r <= 0x3035, r >= 0x3041 && r <= 0x309A, r >= 0x309D && r <= 0x309E, r >= 0x30A0 && r <= 0x30FE,
			r >= 0x4E00 && r <= 0x9FFF,
			r >= 0xAC00 && r <= 0xD7A3,
			r >= 0xFF01 && r <= 0xFF0F, r >= 0xFF1A && r <= 0xFF20,
			r >= 0xFF3B && r <= 0xFF40, r >= 0xFF5B && r <= 0xFF65:
		default:
			return false
		}
	}
	return true
}

// tokenHash hashes a token; tokens of up to 8 bytes (most words, every CJK
// character) are packed into a word and mixed, longer ones go to xxhash.
func tokenHash(tok string) uint64 {
	if len(tok) > 8 {
		return xxhash.Sum64String(tok)
	}
	var v uint64
	for i := 0; i < len(tok); i++ {
		v |= uint64(tok[i]) << (8 * i)
	}
	return mix64(v ^ uint64(len(tok))<<60 ^ 0x6a09e667f3bcc908)
}

// Feature is a hashed shingle with its weight (its count in the text, or
// TF*IDF when an IDF table is applied).
type Feature struct {
	Hash   uint64
	Weight float64
}

// Features returns the text's shingles, hashed, with their counts as
// weights, sorted by hash. A text too short for the smallest shingle size
// yields one feature of all its tokens; an empty text yields none.
func (n *Normalizer) Features(text string) []Feature {
	hashes := n.shingleHashes(text)
	// Sorting and counting runs is faster than a map for the sizes of
	// texts, and gives the features in hash order at once.
	slices.Sort(hashes)
	feats := make([]Feature, 0, len(hashes))
	for _, h := range hashes {
		if k := len(feats) - 1; k >= 0 && feats[k].Hash == h {
			feats[k].Weight++
			continue
		}
		feats = append(feats, Feature{Hash: h, Weight: 1})
	}
	return feats
}

// Fingerprint is SimHash(Features(text)) without building the sorted
// feature set: each shingle's hash is added to the bit counts as often as
// it occurs, which gives the same fingerprint.
func (n *Normalizer) Fingerprint(text string) (uint64, bool) {
	if n.opts.Spaces == RemoveSpaces {
		hashes := n.shingleHashes(text)
		if len(hashes) == 0 {
			return 0, false
		}
		return simhashHashes(hashes), true
	}
	// Stream the shingles into the bit counts: no token or shingle slices.
	var acc simhashAcc
	sizes := n.opts.Shingles
	var ring [16]uint64 // the last 16 token hashes (sizes are at most 16)
	count := 0
	n.scan(text, func(tok string) {
		ring[count&15] = tokenHash(tok)
		count++
		for _, size := range sizes {
			if count >= size {
				acc.add(combineRing(&ring, count-size, size, size))
			}
		}
	})
	if count == 0 {
		return 0, false
	}
	if count < sizes[0] {
		// As Features: a text shorter than the smallest shingle is one
		// feature of all its tokens.
		acc.add(combineRing(&ring, 0, count, sizes[0]))
	}
	return acc.fingerprint(), true
}

// ShingleHashes returns the hash of every shingle occurrence of text,
// unsorted and with repeats: the hashes that Features counts.
func (n *Normalizer) ShingleHashes(text string) []uint64 { return n.shingleHashes(text) }

// HashesAndFingerprint returns n's ShingleHashes of text and sim's
// Fingerprint of it, tokenising the text once when the two normalisers
// differ only in their shingle sizes (as a dedup run's verification and
// SimHash normalisers do).
func (n *Normalizer) HashesAndFingerprint(text string, sim *Normalizer) ([]uint64, uint64, bool) {
	a, b := n.opts, sim.opts
	if a.KeepCase != b.KeepCase || a.Numbers != b.Numbers || a.Spaces != b.Spaces || a.MinWordLen != b.MinWordLen || a.Spaces == RemoveSpaces {
		fp, ok := sim.Fingerprint(text)
		return n.shingleHashes(text), fp, ok
	}
	toks := make([]uint64, 0, len(text)/4)
	n.scan(text, func(tok string) { toks = append(toks, tokenHash(tok)) })
	if len(toks) == 0 {
		return nil, 0, false
	}
	// SimHash of every shingle occurrence, as Fingerprint streams them.
	return n.wordShingles(toks), simhashHashes(sim.wordShingles(toks)), true
}

// shingleHashes returns the hash of every shingle occurrence, unsorted.
func (n *Normalizer) shingleHashes(text string) []uint64 {
	if n.opts.Spaces == RemoveSpaces {
		var sb strings.Builder
		n.scan(text, func(tok string) { sb.WriteString(tok) })
		return n.charGrams(sb.String())
	}
	toks := make([]uint64, 0, len(text)/4)
	n.scan(text, func(tok string) { toks = append(toks, tokenHash(tok)) })
	return n.wordShingles(toks)
}

// wordShingles combines the token hashes of every window of each shingle
// size. The combination depends on the order of the tokens and on the
// size, so shingles of different sizes do not collide by construction.
func (n *Normalizer) wordShingles(toks []uint64) []uint64 {
	if len(toks) == 0 {
		return nil
	}
	out := make([]uint64, 0, len(toks)*len(n.opts.Shingles))
	for _, size := range n.opts.Shingles {
		if len(toks) < size {
			if size == n.opts.Shingles[0] {
				out = append(out, combine(toks, size))
			}
			continue
		}
		for i := 0; i+size <= len(toks); i++ {
			out = append(out, combine(toks[i:i+size], size))
		}
	}
	return out
}

// combineRing is combine over n token hashes of a ring buffer starting at
// position start, for a shingle of the given size.
func combineRing(ring *[16]uint64, start, n, size int) uint64 {
	h := uint64(size) * 0x9e3779b97f4a7c15
	for i := range n {
		h ^= bits.RotateLeft64(ring[(start+i)&15], 17*i)
		h *= 0xff51afd7ed558ccd
	}
	return mix64(h)
}

// combine hashes a window of token hashes: each token rotated by its
// position, mixed with the window size, then finalised.
func combine(toks []uint64, size int) uint64 {
	h := uint64(size) * 0x9e3779b97f4a7c15
	for i, t := range toks {
		h ^= bits.RotateLeft64(t, 17*i)
		h *= 0xff51afd7ed558ccd
	}
	return mix64(h)
}

func (n *Normalizer) charGrams(s string) []uint64 {
	runes := []rune(s)
	g := n.opts.CharGram
	if len(runes) == 0 {
		return nil
	}
	if len(runes) < g {
		return []uint64{xxhash.Sum64String(s)}
	}
	out := make([]uint64, 0, len(runes)-g+1)
	for i := 0; i+g <= len(runes); i++ {
		out = append(out, xxhash.Sum64String(string(runes[i:i+g])))
	}
	return out
}

// Script names the dominant script of a text, for grouping candidates by
// language when no language is known: "cjk", "cyrillic", "latin", "other",
// or "" for a text without letters.
func Script(text string) string {
	var cjk, cyr, lat, other int
	for _, r := range text {
		switch {
		case textseg.IsCJK(r):
			cjk++
		case r >= 0x0400 && r <= 0x04FF:
			cyr++
		case r < 0x250 && unicode.IsLetter(r):
			lat++
		case unicode.IsLetter(r):
			other++
		}
	}
	best, name := 0, ""
	for _, c := range []struct {
		n    int
		name string
	}{{cjk, "cjk"}, {cyr, "cyrillic"}, {lat, "latin"}, {other, "other"}} {
		if c.n > best {
			best, name = c.n, c.name
		}
	}
	return name
}
