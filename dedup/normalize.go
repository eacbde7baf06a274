package dedup

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"
	"golang.org/x/text/unicode/norm"
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

// isIdeo reports whether r belongs to a script written without spaces;
// each such character is a token of its own.
func isIdeo(r rune) bool {
	switch {
	case r >= 0x3040 && r <= 0x30FF, r >= 0x3400 && r <= 0x4DBF, r >= 0x4E00 && r <= 0x9FFF,
		r >= 0xF900 && r <= 0xFAFF, r >= 0xAC00 && r <= 0xD7AF, r >= 0x20000 && r <= 0x2FA1F:
		return true
	}
	return false
}

// Tokens normalises text and splits it into tokens: runs of letters and
// digits (punctuation, symbols and pseudo-graphics separate them), each
// CJK character alone, numbers as the policy says, short words dropped.
func (n *Normalizer) Tokens(text string) []string {
	text = norm.NFKC.String(text)
	if !n.opts.KeepCase {
		text = strings.ToLower(text)
	}
	var toks []string
	start := -1
	digits := true
	emit := func(end int) {
		tok := text[start:end]
		start = -1
		isNum := digits
		digits = true
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
		toks = append(toks, tok)
	}
	for i, r := range text {
		switch {
		case isIdeo(r):
			if start >= 0 {
				emit(i)
			}
			toks = append(toks, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			if start < 0 {
				start = i
			}
			if !unicode.IsDigit(r) {
				digits = false
			}
		default:
			if start >= 0 {
				emit(i)
			}
		}
	}
	if start >= 0 {
		emit(len(text))
	}
	return toks
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
	toks := n.Tokens(text)
	counts := make(map[uint64]float64)
	if n.opts.Spaces == RemoveSpaces {
		n.charGrams(strings.Join(toks, ""), counts)
	} else {
		n.wordShingles(toks, counts)
	}
	feats := make([]Feature, 0, len(counts))
	for h, w := range counts {
		feats = append(feats, Feature{Hash: h, Weight: w})
	}
	sort.Slice(feats, func(i, j int) bool { return feats[i].Hash < feats[j].Hash })
	return feats
}

func (n *Normalizer) wordShingles(toks []string, counts map[uint64]float64) {
	if len(toks) == 0 {
		return
	}
	var d xxhash.Digest
	for _, size := range n.opts.Shingles {
		if len(toks) < size {
			if size == n.opts.Shingles[0] {
				counts[hashTokens(&d, toks, size)]++
			}
			continue
		}
		for i := 0; i+size <= len(toks); i++ {
			counts[hashTokens(&d, toks[i:i+size], size)]++
		}
	}
}

// hashTokens hashes a shingle; the size is mixed in so that shingles of
// different sizes never collide by construction.
func hashTokens(d *xxhash.Digest, toks []string, size int) uint64 {
	d.Reset()
	d.Write([]byte{byte(size)})
	for _, t := range toks {
		d.WriteString(t)
		d.Write([]byte{0})
	}
	return d.Sum64()
}

func (n *Normalizer) charGrams(s string, counts map[uint64]float64) {
	runes := []rune(s)
	g := n.opts.CharGram
	if len(runes) == 0 {
		return
	}
	if len(runes) < g {
		counts[xxhash.Sum64String(s)]++
		return
	}
	for i := 0; i+g <= len(runes); i++ {
		counts[xxhash.Sum64String(string(runes[i:i+g]))]++
	}
}
