// Package infholder learns a site's template from many of its pages and
// marks the template blocks of a page as boilerplate, as seed 000
// describes Infholder: group the pages of a site by URL, strip attributes
// and keep tags and text, merge neighbouring tags into blocks, take the
// CRC32 of each block, and find the longest common subsequence of the
// pages' block vectors: what they share is the template.
//
// Folding one LCS over a whole site shrinks it to what every page shares
// (data README: F1 0.74 on CleanPortalEval); each page is instead compared
// with a few peers of its group, and a block is template when most of the
// comparisons match it. Short isolated matches (a date or a publisher that
// two product pages share by chance) are guarded against: a matched block
// counts only inside a run of MinRun consecutive matched blocks, or when
// it is long.
package infholder

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/internal/par"
)

// Stage is the name the template stage votes under (extract.Reason.Stage).
const Stage = extract.StageTemplate

// Signature says what of a block the template compares: seed 000's
// "style inbreeding" variants.
type Signature string

// The signature variants. Content is Infholder's own (tags and text).
const (
	SigContent  Signature = "content"   // tag path and text (extract.Block.Sig)
	SigTags     Signature = "tags"      // the tag path only: intersect the DOM trees
	SigTagsSize Signature = "tags+size" // tag path and the order of magnitude of the text
	SigTagsKind Signature = "tags+kind" // tag path, block kind and whether it is all links
)

// Signatures lists the variants in a fixed order.
var Signatures = []Signature{SigContent, SigTags, SigTagsSize, SigTagsKind}

// Options configure learning. The zero value compares each page with 5
// peers, needs runs of 3 matched blocks and a match in half the peers,
// and compares blocks by tags and text.
type Options struct {
	Signature Signature // what is compared; "" means SigContent
	Peers     int       // peers each page is compared with; 0 means 5
	MinRun    int       // consecutive matched blocks that make a run; 0 means 3
	LongRun   int       // words from which a lone matched block counts; 0 means 12
	Workers   int       // goroutines comparing a group's pages while learning; 0 means 1
}

func (o *Options) ensureDefaults() {
	if o.Signature == "" {
		o.Signature = SigContent
	}
	if o.Peers == 0 {
		o.Peers = 5
	}
	if o.MinRun == 0 {
		o.MinRun = 3
	}
	if o.LongRun == 0 {
		o.LongRun = 12
	}
}

// Site is the site of a page URL: its host with www. folded, and the
// directories of its path (the last segment is the page). A file: URL
// (a saved page with no URL of its own) has the folder it lies in as its
// site, with no directories: pages saved in one folder are taken as one
// site's. A string that is no URL is its own site.
func Site(raw string) (host string, dirs []string) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return raw, nil
	case u.Scheme == "file":
		dir, _ := path.Split(u.Path)
		return "file:" + strings.TrimSuffix(dir, "/"), nil
	case u.Host == "":
		return raw, nil
	}
	host = strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	dirs = strings.Split(strings.Trim(u.Path, "/"), "/")
	return host, dirs[:len(dirs)-1]
}

// GroupKeys assigns every URL a group: the site's host (see Site) and a
// prefix of the path's directories. A group splits into its
// subdirectories when those with at least minSize pages hold nine in ten
// of its pages (the few others join the largest); otherwise it stays
// whole. Real sites put dates in paths (/2013/04/28/slug), where the
// deepest directories hold one page each (data README): those pages stay
// together under the shortest prefix they share.
func GroupKeys(urls []string, minSize int) []string {
	type item struct {
		idx  int
		dirs []string
	}
	byHost := map[string][]item{}
	var hosts []string
	keys := make([]string, len(urls))
	for i, raw := range urls {
		host, dirs := Site(raw)
		if _, ok := byHost[host]; !ok {
			hosts = append(hosts, host)
		}
		byHost[host] = append(byHost[host], item{i, dirs})
	}
	var split func(prefix string, depth int, items []item)
	split = func(prefix string, depth int, items []item) {
		children := map[string][]item{}
		var names []string
		for _, it := range items {
			if len(it.dirs) > depth {
				name := it.dirs[depth]
				if _, ok := children[name]; !ok {
					names = append(names, name)
				}
				children[name] = append(children[name], it)
			}
		}
		sort.Strings(names)
		covered, largest := 0, ""
		for _, n := range names {
			if len(children[n]) >= minSize {
				covered += len(children[n])
				if largest == "" || len(children[n]) > len(children[largest]) {
					largest = n
				}
			}
		}
		if largest == "" || covered*10 < len(items)*9 {
			for _, it := range items {
				keys[it.idx] = prefix
			}
			return
		}
		for _, it := range items {
			if len(it.dirs) <= depth || len(children[it.dirs[depth]]) < minSize {
				children[largest] = append(children[largest], it) // a straggler
			}
		}
		for _, n := range names {
			if len(children[n]) >= minSize {
				split(prefix+n+"/", depth+1, children[n])
			}
		}
	}
	for _, h := range hosts {
		split(h+"/", 0, byHost[h])
	}
	return keys
}

// Template is what a group's pages share: the signatures (extract.Block.Sig)
// of their template blocks, with the share of sample pages where each was
// template.
type Template struct {
	Version   int                `json:"version"`
	Group     string             `json:"group"`
	Signature Signature          `json:"signature"`
	Pages     int                `json:"pages"`
	Sigs      map[uint32]float64 `json:"sigs"`
}

// duplicateShare: two pages whose block vectors match on this share of
// the longer one are copies of one article, not evidence of a template.
const duplicateShare = 0.9

// TemplateVersion is the version of the saved template format.
const TemplateVersion = 1

// Learn finds the template blocks of every page of one group by pairwise
// LCS against peers, labels them on the pages, and returns the group's
// template. Pages are compared with the pages that follow them in the
// slice (wrapping round), so the result does not depend on map order.
func Learn(group string, pages []*extract.Page, opts Options) *Template {
	opts.ensureDefaults()
	samples := make([]Sample, len(pages))
	for i, p := range pages {
		samples[i] = NewSample(p, opts.Signature)
	}
	t, marks := learn(group, samples, opts)
	for i, p := range pages {
		for _, m := range marks[i] {
			if b := p.Blocks[m.block]; b.Label == extract.Unknown {
				b.Label = extract.Boilerplate
				b.Vote(Stage, "template", -m.share)
			}
		}
	}
	return t
}

// MinPages is the fewest pages a template is learned from; a smaller
// group's template is empty. Two pages cannot tell their site's template
// from what they share by chance (related links, a topic): on
// Scrapinghub, where 49 sites have two pages, templates of two pages cost
// 0.0015 F1 against none.
const MinPages = 3

// LearnGroups groups pages by GroupKeys over their URLs (groups of at
// least MinPages pages), learns each group's template on its pages (in
// order of first appearance) and labels them. It returns the templates
// by group key.
func LearnGroups(pages []*extract.Page, opts Options) map[string]*Template {
	urls := make([]string, len(pages))
	for i, p := range pages {
		if p.URL != nil {
			urls[i] = p.URL.String()
		}
	}
	groups := map[string][]*extract.Page{}
	var order []string
	for i, k := range GroupKeys(urls, MinPages) {
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], pages[i])
	}
	out := make(map[string]*Template, len(order))
	for _, k := range order {
		out[k] = Learn(k, groups[k], opts)
	}
	return out
}

// Sample is what learning needs of a page: the signature and word count
// of each block, a few bytes a block. A batch run keeps samples, not
// pages, so its memory does not grow with the pages of a site.
type Sample struct {
	Sigs  []uint32
	Words []uint16
}

// NewSample takes a page's block signatures under a variant.
func NewSample(p *extract.Page, v Signature) Sample {
	s := Sample{Sigs: sigs(p, v), Words: make([]uint16, len(p.Blocks))}
	for i, b := range p.Blocks {
		s.Words[i] = uint16(min(b.Words, 65535))
	}
	return s
}

// LearnSamples is Learn on samples: it returns the group's template
// without labelling anything.
func LearnSamples(group string, samples []Sample, opts Options) *Template {
	opts.ensureDefaults()
	t, _ := learn(group, samples, opts)
	return t
}

type mark struct {
	block int
	share float64
}

func learn(group string, samples []Sample, opts Options) (*Template, [][]mark) {
	t := &Template{Version: TemplateVersion, Group: group, Signature: opts.Signature, Pages: len(samples), Sigs: map[uint32]float64{}}
	marks := make([][]mark, len(samples))
	if len(samples) < MinPages {
		return t, marks
	}
	peers := min(opts.Peers, len(samples)-1)
	// Each page's comparisons with its peers are independent: they run on
	// the workers, and the votes are counted in page order after.
	par.Each(len(samples), opts.Workers, func(i int) { marks[i] = compare(samples, i, peers, opts) })
	seen := map[uint32]int{}
	for i, smp := range samples {
		for _, m := range marks[i] {
			seen[smp.Sigs[m.block]]++
		}
	}
	for sig, n := range seen {
		t.Sigs[sig] = float64(n) / float64(len(samples))
	}
	return t, marks
}

// compare marks the blocks of samples[i] that at least half of the peers
// it was compared with share (copies of the page are not compared).
func compare(samples []Sample, i, peers int, opts Options) []mark {
	smp := samples[i]
	votes := make([]int, len(smp.Sigs))
	compared := 0
	for k := 1; k <= peers; k++ {
		other := samples[(i+k)%len(samples)]
		matches := lcsMatches(smp.Sigs, other.Sigs)
		if float64(len(matches)) >= duplicateShare*float64(max(len(smp.Sigs), len(other.Sigs))) {
			// The two pages are copies of one article (a reprint, the
			// same post under two URLs): what they share is not template.
			continue
		}
		compared++
		in := make([]bool, len(smp.Sigs))
		for _, idx := range matches {
			in[idx] = true
		}
		for _, idx := range guard(in, smp.Words, opts) {
			votes[idx]++
		}
	}
	var marks []mark
	for idx, v := range votes {
		if v > 0 && 2*v >= compared {
			marks = append(marks, mark{idx, float64(v) / float64(compared)})
		}
	}
	return marks
}

// Apply labels the blocks of a new page of the group that the template
// knows, with the same guard against short isolated matches. It returns
// the share of the page's blocks that matched (a low share on a site
// whose template changed means the template should be relearned).
func (t *Template) Apply(p *extract.Page, opts Options) float64 {
	opts.ensureDefaults()
	if len(t.Sigs) == 0 || len(p.Blocks) == 0 {
		return 0
	}
	smp := NewSample(p, t.signature())
	in := make([]bool, len(p.Blocks))
	for i := range p.Blocks {
		in[i] = t.Sigs[smp.Sigs[i]] > 0
	}
	matched := 0
	seq := smp.Sigs
	for _, idx := range guard(in, smp.Words, opts) {
		b := p.Blocks[idx]
		if b.Label == extract.Unknown {
			b.Label = extract.Boilerplate
			b.Vote(Stage, "template", -t.Sigs[seq[idx]])
		}
		matched++
	}
	return float64(matched) / float64(len(p.Blocks))
}

func (t *Template) signature() Signature {
	if t.Signature == "" {
		return SigContent
	}
	return t.Signature
}

// sigs returns the page's block signatures under a variant.
func sigs(p *extract.Page, v Signature) []uint32 {
	out := make([]uint32, len(p.Blocks))
	for i, b := range p.Blocks {
		switch v {
		case SigTags:
			out[i] = crc32.ChecksumIEEE([]byte(b.Path))
		case SigTagsSize:
			out[i] = crc32.ChecksumIEEE([]byte(fmt.Sprintf("%s\x00%d", b.Path, bits.Len(uint(b.Words)))))
		case SigTagsKind:
			out[i] = crc32.ChecksumIEEE([]byte(fmt.Sprintf("%s\x00%d\x00%v", b.Path, b.Kind, b.LinkWords == b.Words && b.Words > 0)))
		default:
			out[i] = b.Sig
		}
	}
	return out
}

func guard(in []bool, words []uint16, opts Options) []int {
	var out []int
	for i := 0; i < len(in); {
		if !in[i] {
			i++
			continue
		}
		j := i
		for j < len(in) && in[j] {
			j++
		}
		for k := i; k < j; k++ {
			if j-i >= opts.MinRun || int(words[k]) >= opts.LongRun {
				out = append(out, k)
			}
		}
		i = j
	}
	return out
}

// lcsMatches returns the indices in a of one longest common subsequence of
// a and b (dynamic programming; block vectors are short).
func lcsMatches(a, b []uint32) []int {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return nil
	}
	if n*m > 4_000_000 {
		return greedyMatches(a, b) // a pathological page: stay linear-ish
	}
	dp := make([]int32, (n+1)*(m+1))
	w := m + 1
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i*w+j] = dp[(i+1)*w+j+1] + 1
			} else if dp[(i+1)*w+j] >= dp[i*w+j+1] {
				dp[i*w+j] = dp[(i+1)*w+j]
			} else {
				dp[i*w+j] = dp[i*w+j+1]
			}
		}
	}
	var out []int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case a[i] == b[j]:
			out = append(out, i)
			i++
			j++
		case dp[(i+1)*w+j] >= dp[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

// greedyMatches matches signatures in order, each to its next occurrence.
func greedyMatches(a, b []uint32) []int {
	pos := map[uint32][]int{}
	for j, s := range b {
		pos[s] = append(pos[s], j)
	}
	var out []int
	last := -1
	for i, s := range a {
		ps := pos[s]
		k := sort.SearchInts(ps, last+1)
		if k < len(ps) {
			out = append(out, i)
			last = ps[k]
		}
	}
	return out
}

// Fit is the share of the template's common blocks (those template on at
// least half the sample pages) that a page's sample (NewSample with the
// template's Signature) contains. A site that changed
// its layout leaves most of them out: the template should be relearned.
func (t *Template) Fit(s Sample) float64 {
	present := map[uint32]bool{}
	for _, sig := range s.Sigs {
		present[sig] = true
	}
	common, found := 0, 0
	for sig, share := range t.Sigs {
		if share >= 0.5 {
			common++
			if present[sig] {
				found++
			}
		}
	}
	if common == 0 {
		return 0
	}
	return float64(found) / float64(common)
}

// Save writes the template as JSON.
func (t *Template) Save(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(t)
}

// ErrVersion is returned by Load for a template of another format version.
var ErrVersion = errors.New("infholder: template of another version")

// Load reads a template written by Save.
func Load(r io.Reader) (*Template, error) {
	var t Template
	if err := json.NewDecoder(r).Decode(&t); err != nil {
		return nil, fmt.Errorf("infholder: load template: %w", err)
	}
	if t.Version != TemplateVersion {
		return nil, fmt.Errorf("%w: %d, want %d", ErrVersion, t.Version, TemplateVersion)
	}
	return &t, nil
}

// FileName is a file name for a group's template: the group key with
// every character outside [a-z0-9.-] replaced, and a hash against
// collisions.
func FileName(group string) string {
	var sb strings.Builder
	for _, r := range strings.ToLower(group) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			sb.WriteRune(r)
		} else {
			sb.WriteByte('_')
		}
	}
	name := sb.String()
	if len(name) > 100 {
		name = name[:100]
	}
	return fmt.Sprintf("%s-%08x.json", name, crc32.ChecksumIEEE([]byte(group)))
}
