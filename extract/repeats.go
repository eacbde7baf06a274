package extract

import (
	"cmp"
	"slices"
	"unicode"
	"unicode/utf8"
)

// ReasonRepeat (boilerplate) marks a kept block that repeats, with the
// blocks around it, text the page already gave: a run of consecutive kept
// blocks whose words (lower-cased \w+ runs) are those of an earlier run of
// kept blocks, block for block and in the same order, with at least
// repeatBlocks blocks and repeatWords words, or one block of
// repeatLongWords words. Page builders write a section once per screen
// size and let the style sheet hide all but one (on wcxb-dev-even an
// article came three times, a product page's description twice), and a
// forum reply quotes the post it answers; a reader sees the text once,
// and WCXB's golds hold it once. A phrase that comes back alone between
// other text ("Warm up: 10 minutes of easy jogging" in each day of a
// training plan) is no run and stays. The earlier copy stays. It runs
// last, on what every other rule kept. wcxb-dev-even 0.8550 -> 0.8586
// (domain halves 0.8516 -> 0.8583 and, held out, 0.8580 -> 0.8590;
// product 0.647 -> 0.665, forum 0.784 -> 0.794, listing 0.699 -> 0.707,
// documentation 0.888 -> 0.886); scrapinghub 0.9650 -> 0.9633 (a meal
// plan's second menu shares dishes with the first), daniel-zh 0.9554 ->
// 0.9547, cleaneval-zh 0.9427 -> 0.9421, daniel-ru 0.8809 -> 0.8818.
// Asking that the repeated run be all that its element keeps, or that
// its container be mostly repeats, spared the meal plan but lost half of
// the gain on both halves (0.8570, 0.8580). A run whose first block has
// the parent of its earlier copy's first block stays: a refrain sung
// again between the verses of one song, the meal plan's dishes in one
// list (scrapinghub back to 0.9648, daniel-zh 0.9552, wcxb-dev-even
// unchanged at 0.8598, documentation 0.8925 -> 0.8923). Preformatted
// code is never a repeat, nor breaks a run: an API reference shows the
// same response object under each endpoint, and WCXB's golds keep every
// copy (wcxb-dev-even 0.8625 -> 0.8627, domain halves 0.8620 -> 0.8621
// and 0.8629 -> 0.8633, documentation 0.9056 -> 0.9081, forum 0.7940 ->
// 0.7945; the other sets unchanged). Nor does any text repeat on a
// documentation page: a reference describes the same parameter under each
// endpoint that takes it, and a procedure gives the same step in each of
// its variants; WCXB's golds keep every copy (wcxb-dev-even documentation
// 0.9081 -> 0.9098, all 0.8637 -> 0.8640; domain half 1 unchanged; on
// the held-out half 2 an API reference's parameters 0.835 -> 0.913, a
// procedure's steps 0.960 -> 0.965, and an article the model takes for
// documentation 0.823 -> 0.985).
const ReasonRepeat = "repeat"

// repeatBlocks, repeatWords and repeatLongWords bound a repeated run
// (ReasonRepeat). Measured on wcxb-dev-even's domain half 1 (half 2
// held out): any repeated run of 20 words gained 0.0077 on half 1 and
// lost 0.0004 on half 2 (single phrases of a training plan, a fare's
// dates); two blocks, or one of 40 words, 0.0066 and +0.0009; at 30 and
// 60 words, 0.0053 and +0.0009.
const (
	repeatBlocks    = 2
	repeatWords     = 20
	repeatLongWords = 40
)

// dropRepeats is the rule of ReasonRepeat; it runs after every rule that
// keeps blocks.
func (c *classifier) dropRepeats() {
	type copyKey struct {
		h   uint64
		pos int32 // position among the kept blocks
	}
	blocks := c.page.Blocks
	var kept []int32 // the indices of the kept blocks
	var keys []copyKey
	for i, b := range blocks {
		if b.Label != Content || b.Words == 0 || b.Kind == Pre {
			continue
		}
		keys = append(keys, copyKey{wordsHash(b.Text), int32(len(kept))})
		kept = append(kept, int32(i))
	}
	if len(kept) < 2 {
		return
	}
	slices.SortFunc(keys, func(a, b copyKey) int {
		return cmp.Or(cmp.Compare(a.h, b.h), cmp.Compare(a.pos, b.pos))
	})
	first := make([]int32, len(kept)) // the position of each block's first copy, -1 for a first copy
	for i, k := range keys {
		first[k.pos] = -1
		if i > 0 && keys[i-1].h == k.h {
			first[k.pos] = max(first[keys[i-1].pos], keys[i-1].pos)
		}
	}
	for i := 0; i < len(kept); {
		if first[i] < 0 || blocks[kept[i]].Firm {
			i++
			continue
		}
		j, words := i+1, blocks[kept[i]].Words
		for j < len(kept) && first[j] >= 0 && first[j] == first[j-1]+1 && first[j] < int32(i) && !blocks[kept[j]].Firm {
			words += blocks[kept[j]].Words
			j++
		}
		if (j-i >= repeatBlocks && words >= repeatWords || words >= repeatLongWords) && !sameParent(blocks[kept[i]], blocks[kept[first[i]]]) {
			for _, k := range kept[i:j] {
				blocks[k].Label = Boilerplate
				blocks[k].Vote(StageDensity, ReasonRepeat, -1)
			}
		}
		i = j
	}
}

// wordsHash hashes (FNV-1a) the lower-cased words, runs of letters,
// digits and underscores, of s: two blocks that differ only in spacing,
// punctuation or case hash alike.
func wordsHash(s string) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	var buf [utf8.UTFMax]byte
	inWord := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			for _, c := range buf[:utf8.EncodeRune(buf[:], unicode.ToLower(r))] {
				h = (h ^ uint64(c)) * prime
			}
			inWord = true
		} else if inWord {
			h = (h ^ ' ') * prime
			inWord = false
		}
	}
	return h
}

// sameParent says whether two blocks are children of one element: a
// refrain repeated between the verses of one poem or song, not a copy
// of a section in a container of its own.
func sameParent(a, b *Block) bool {
	return a.Node != nil && b.Node != nil && a.Node.Parent != nil && a.Node.Parent == b.Node.Parent
}
