package evaluate

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/winnow-go/winnow/dedup"
)

// GenDoc is one document of a generated near-duplicate collection.
type GenDoc struct {
	URL    string  `json:"url"`
	Text   string  `json:"text"`
	Source int     `json:"-"` // index of the base text it derives from
	Target float64 `json:"-"` // the Jaccard the edits aimed at (1 for an original)
}

// GoldTexts returns the human gold texts of the extraction sets
// (daniel-ru, daniel-zh, cleaneval-zh and the Scrapinghub article bodies),
// sorted by name: real text that nobody on this project wrote, used as the
// base of generated collections.
func GoldTexts(dataDir string) ([]string, error) {
	var out []string
	for _, set := range []string{"daniel-ru", "daniel-zh", "cleaneval-zh"} {
		files, err := filepath.Glob(filepath.Join(dataDir, "extract", set, "gold", "*.txt"))
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			if t := strings.TrimSpace(string(b)); t != "" {
				out = append(out, t)
			}
		}
	}
	raw, err := os.ReadFile(filepath.Join(dataDir, "extract", "scrapinghub", "ground-truth.json"))
	if err != nil {
		return nil, err
	}
	var gt map[string]struct {
		ArticleBody string `json:"articleBody"`
	}
	if err := json.Unmarshal(raw, &gt); err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(gt))
	for id := range gt {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if t := strings.TrimSpace(gt[id].ArticleBody); t != "" {
			out = append(out, t)
		}
	}
	return out, nil
}

// Edits that crawlers see between copies of one page (inserted ads and
// counters, dates, a changed title, cut or added paragraphs).
var (
	genAds      = []string{"Advertisement: subscribe now and save 50%!", "Реклама. Купите сейчас со скидкой!", "广告：立即订阅，享受五折优惠！", "Sponsored: the best loans in town."}
	genCounters = []string{"Views: %d", "Просмотров: %d", "阅读：%d", "Comments (%d)"}
)

// minCopyShingles is the fewest shingles a base text needs to get copies:
// one changed word moves the Jaccard of a shorter text by more than 0.05.
const minCopyShingles = 60

// Generate builds a seeded near-duplicate collection from base texts: every
// base text once, and for a tenth of them (chosen at random) 1 to 5 edited
// copies, each edited until the Jaccard of its 3-word shingles with the
// original falls to a target drawn evenly from [0.6, 1.0].
func Generate(base []string, seed uint64) []GenDoc {
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	norm, _ := dedup.NewNormalizer(dedup.Options{})
	var docs []GenDoc
	for i, t := range base {
		docs = append(docs, GenDoc{URL: fmt.Sprintf("https://site%d.example/doc/%d", i%50, i), Text: t, Source: i, Target: 1})
	}
	for i, t := range base {
		if rng.Float64() >= 0.1 {
			continue
		}
		orig := norm.Features(t)
		if len(orig) < minCopyShingles {
			continue // too short for a Jaccard between 0.6 and 1 to mean much
		}
		for c := range 1 + rng.IntN(5) {
			target := 0.6 + 0.4*rng.Float64()
			text := editTo(rng, norm, t, orig, target, base)
			docs = append(docs, GenDoc{URL: fmt.Sprintf("https://mirror%d.example/copy/%d/%d", c, i, c), Text: text, Source: i, Target: target})
		}
	}
	return docs
}

// editTo applies random edits to text until its Jaccard with orig is at
// most target. A coarse edit (an inserted line, a cut paragraph, a new
// title) that would overshoot the target by more than 0.03 is replaced by
// a fine one (one word changed), so the copies spread evenly over the
// range even for short texts.
func editTo(rng *rand.Rand, norm *dedup.Normalizer, text string, orig []dedup.Feature, target float64, base []string) string {
	paras := strings.Split(text, "\n")
	jaccard := func(p []string) float64 { return dedup.Jaccard(norm.Features(strings.Join(p, "\n")), orig) }
	for step := 0; step < 2000; step++ {
		if jaccard(paras) <= target {
			break
		}
		next := coarseEdit(rng, append([]string(nil), paras...), base)
		if jaccard(next) < target-0.03 {
			next = fineEdit(rng, append([]string(nil), paras...))
		}
		paras = next
	}
	return strings.Join(paras, "\n")
}

func coarseEdit(rng *rand.Rand, paras []string, base []string) []string {
	pos := rng.IntN(len(paras) + 1)
	switch rng.IntN(6) {
	case 0: // an ad line
		return insertAt(paras, pos, genAds[rng.IntN(len(genAds))])
	case 1: // a counter
		return insertAt(paras, pos, fmt.Sprintf(genCounters[rng.IntN(len(genCounters))], rng.IntN(100000)))
	case 2: // a date line
		return insertAt(paras, pos, fmt.Sprintf("%04d-%02d-%02d %02d:%02d", 2005+rng.IntN(20), 1+rng.IntN(12), 1+rng.IntN(28), rng.IntN(24), rng.IntN(60)))
	case 3: // a changed title: the first line gets a prefix and loses a word
		words := strings.Fields(paras[0])
		if len(words) > 1 {
			words = words[1:]
		}
		paras[0] = "UPDATE: " + strings.Join(words, " ")
		return paras
	case 4: // a cut paragraph
		if len(paras) > 2 {
			i := 1 + rng.IntN(len(paras)-1)
			return append(paras[:i], paras[i+1:]...)
		}
		return paras
	default: // a paragraph from another text
		other := strings.Split(base[rng.IntN(len(base))], "\n")
		return insertAt(paras, pos, other[rng.IntN(len(other))])
	}
}

// fineEdit replaces one word (or, in text without spaces, one character)
// with a counter-like token.
func fineEdit(rng *rand.Rand, paras []string) []string {
	i := rng.IntN(len(paras))
	words := strings.Fields(paras[i])
	if len(words) == 0 {
		paras[i] = fmt.Sprintf("x%d", rng.IntN(1000000))
		return paras
	}
	w := rng.IntN(len(words))
	if r := []rune(words[w]); len(r) > 8 {
		// A run of CJK text: change one character, not the whole run.
		k := rng.IntN(len(r))
		words[w] = string(r[:k]) + fmt.Sprintf(" x%d ", rng.IntN(1000000)) + string(r[k+1:])
	} else {
		words[w] = fmt.Sprintf("x%d", rng.IntN(1000000))
	}
	paras[i] = strings.Join(words, " ")
	return paras
}

func insertAt(s []string, i int, v string) []string {
	s = append(s, "")
	copy(s[i+1:], s[i:])
	s[i] = v
	return s
}
