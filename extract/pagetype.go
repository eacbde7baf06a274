package extract

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/winnow-go/winnow/internal/softmax"
)

// PageType is what kind of page a page is, as WCXB labels pages.
type PageType string

// Page types.
const (
	TypeArticle       PageType = "article"       // one text: news, blog post, essay
	TypeForum         PageType = "forum"         // a thread of posts, or a question and its answers
	TypeListing       PageType = "listing"       // a list of items to pick from: search results, a category's articles
	TypeCollection    PageType = "collection"    // a shop's category or a gallery: product or item cards
	TypeProduct       PageType = "product"       // one product with its price
	TypeService       PageType = "service"       // a business page describing what it offers
	TypeDocumentation PageType = "documentation" // technical documentation
	TypeOther         PageType = "other"         // no text to judge
)

// PageTypes lists the page types ClassifyType returns, in a fixed order.
var PageTypes = []PageType{TypeArticle, TypeForum, TypeListing, TypeCollection, TypeProduct, TypeService, TypeDocumentation, TypeOther}

// EvidencePriceMarkup is ClassifyType's evidence that the page marks up
// prices (itemprop=price, a JSON-LD offer's price, or repeated prices
// with a currency).
const EvidencePriceMarkup = "price-markup"

// TypeGuess is ClassifyType's answer: the type, the model's probability
// of it, and the evidence as short named reasons ("jsonld:Product",
// "og:type=article", "url:/category/", "repeated-items:24",
// "price-markup", "code-blocks:5", "model:0.91").
type TypeGuess struct {
	Type       PageType
	Confidence float64
	Evidence   []string
}

// ClassifyType guesses the page's type from its schema.org types (JSON-LD
// and microdata), og:type, URL shape, repeated item structures, post,
// price, cart and code markup and the shape of its text. A multinomial
// logistic regression over those features decides (the weights are
// pagetype_model.json, trained on WCXB's labelled pages by
// internal/tools/trainpagetype); a few decisive signals overrule it. A page
// with no text and no evidence is TypeOther. It reads p.Doc and p.Blocks
// and changes nothing; it costs one walk of the tree.
func ClassifyType(p *Page) TypeGuess {
	s := scanType(p)
	ev := s.evidence()
	if s.f[fWords] == 0 && len(ev) == 0 {
		return TypeGuess{Type: TypeOther, Confidence: 1, Evidence: []string{"no-text"}}
	}
	stated, why := s.decisive()
	if why != "" {
		ev = append([]string{why}, ev...)
	}
	t, conf := typeModel.Decide(s.vector(), stated)
	if conf >= 0 {
		ev = append(ev, "model:"+strconv.FormatFloat(conf, 'f', 2, 64))
	}
	return TypeGuess{Type: t, Confidence: max(conf, 0), Evidence: ev}
}

// SetType records a guess of ClassifyType on the page: Type,
// TypeEvidence and TypeConfidence.
func (p *Page) SetType(g TypeGuess) {
	p.Type, p.TypeEvidence, p.TypeConfidence = g.Type, g.Evidence, g.Confidence
}

// TypeFeatures returns the inputs ClassifyType's model reads for p, in
// the order of TypeFeatureNames, and the type the markup states outright
// ("" for none). It is exported for the trainer
// (internal/tools/trainpagetype).
func TypeFeatures(p *Page) (x []float64, stated PageType) {
	s := scanType(p)
	stated, _ = s.decisive()
	return s.vector(), stated
}

// Decide returns the type of a page with features x (TypeFeatures): the
// type its markup states when stated is not "", else the model's most
// probable class, with the model's probability of it rounded to 0.01 (-1
// when m is nil: every page is then an article).
func (m *TypeModel) Decide(x []float64, stated PageType) (PageType, float64) {
	if m == nil || len(m.Classes) == 0 {
		if stated != "" {
			return stated, -1
		}
		return TypeArticle, -1
	}
	probs := m.Probs(x)
	best := 0
	for i, q := range probs {
		if q > probs[best] {
			best = i
		}
	}
	if stated != "" {
		for i, c := range m.Classes {
			if PageType(c) == stated {
				return stated, round2(probs[i])
			}
		}
		return stated, 0
	}
	return PageType(m.Classes[best]), round2(probs[best])
}

// decisive returns a type the markup states outright, overruling the
// model, with its reason: a schema.org DiscussionForumPosting or QAPage
// (JSON-LD or microdata), forum software naming itself as the generator,
// or a product's own URL (/product/<id>, /dp/<id>) on a page with a price
// by its headline, price markup or a cart action. On wcxb-dev-even the
// forum rules name 41 pages, all forums, and the product rule 11, all
// products; on SWDE's book pages ClassifyType then calls 990 of 1,000
// products (553 without the rule).
func (s *typeSignals) decisive() (PageType, string) {
	switch {
	case s.forumPosting:
		return TypeForum, "stated:DiscussionForumPosting"
	case s.qaPage:
		return TypeForum, "stated:QAPage"
	case s.f[fGenForum] > 0:
		return TypeForum, "stated:forum-software"
	case s.productPath && (s.headlinePrices > 0 || s.f[fItempropPrice] > 0 || s.f[fJSONLDPrice] > 0 || s.f[fCartActions] > 0):
		return TypeProduct, "stated:product-url+price"
	}
	return "", ""
}

// evidence lists the signals that are present, as named reasons.
func (s *typeSignals) evidence() []string {
	var ev []string
	seen := map[string]bool{}
	for _, t := range s.jsonld {
		if !seen[t] && len(ev) < 4 {
			seen[t] = true
			ev = append(ev, "jsonld:"+t)
		}
	}
	for _, t := range s.itemtype {
		if !seen[t] && len(ev) < 6 {
			seen[t] = true
			ev = append(ev, "microdata:"+t)
		}
	}
	if s.ogType != "" {
		ev = append(ev, "og:type="+s.ogType)
	}
	for _, u := range []struct {
		f    int
		name string
	}{
		{fURLTag, "url:/tag/"}, {fURLCategory, "url:/category/"}, {fURLProduct, "url:/product/"},
		{fURLShop, "url:/shop/"}, {fURLCollection, "url:/collection/"}, {fURLService, "url:/services/"},
		{fURLDocs, "url:/docs/"}, {fURLForum, "url:/forum/"}, {fURLThread, "url:/thread/"},
		{fURLQuestion, "url:/questions/"}, {fURLSearch, "url:search"}, {fURLPage, "url:page-n"},
		{fURLYear, "url:/year/"}, {fURLArticle, "url:/blog/"}, {fURLHostDocs, "host:docs"},
		{fURLHostForum, "host:forum"},
	} {
		if s.f[u.f] > 0 {
			ev = append(ev, u.name)
		}
	}
	if n := s.f[fRepeatMax]; n >= 6 {
		ev = append(ev, fmt.Sprintf("repeated-items:%d", int(n)))
	}
	if n := s.f[fPostRepeat]; n >= 3 {
		ev = append(ev, fmt.Sprintf("post-repeats:%d", int(n)))
	}
	if s.f[fItempropPrice] > 0 || s.f[fJSONLDPrice] > 0 || s.f[fPriceRepeat] > 0 && s.f[fCurrency] > 0 {
		ev = append(ev, EvidencePriceMarkup)
	}
	if s.f[fCartActions] > 0 {
		ev = append(ev, "cart")
	}
	if n := s.f[fPre] + s.f[fPreBlocks]; n >= 2 {
		ev = append(ev, fmt.Sprintf("code-blocks:%d", int(max(s.f[fPre], s.f[fPreBlocks]))))
	}
	if n := s.f[fNestedLists]; n >= 5 {
		ev = append(ev, fmt.Sprintf("nav-tree:%d", int(n)))
	}
	if n := s.f[fTelLinks] + s.f[fPhones]; n > 0 {
		ev = append(ev, fmt.Sprintf("phone:%d", int(n)))
	}
	if n := s.f[fLongParas]; n >= 5 {
		ev = append(ev, fmt.Sprintf("long-paragraphs:%d", int(n)))
	}
	if s.f[fGenForum] > 0 {
		ev = append(ev, "generator:forum")
	}
	if s.f[fGenDocs] > 0 {
		ev = append(ev, "generator:docs")
	}
	if s.f[fGenShop] > 0 {
		ev = append(ev, "generator:shop")
	}
	return ev
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// TypeModel is the page-type model's file format (pagetype_model.json):
// a multinomial logistic regression over standardised features.
type TypeModel struct {
	Note     string      `json:"note"`
	Features []string    `json:"features"`
	Classes  []string    `json:"classes"`
	Mean     []float64   `json:"mean"`
	Scale    []float64   `json:"scale"`
	Bias     []float64   `json:"bias"`
	Weights  [][]float64 `json:"weights"` // by class, then by feature
}

// Probs returns the class probabilities of feature vector x (TypeFeatures),
// in the order of m.Classes.
func (m *TypeModel) Probs(x []float64) []float64 {
	out := make([]float64, len(m.Classes))
	for c := range m.Classes {
		z := m.Bias[c]
		w := m.Weights[c]
		for i, v := range x {
			if i < len(w) {
				z += w[i] * (v - m.Mean[i]) / m.Scale[i]
			}
		}
		out[c] = z
	}
	softmax.Normalize(out)
	return out
}

//go:embed pagetype_model.json
var typeModelJSON []byte

// typeModel is the embedded model; nil when its features are not this
// build's (a feature was added without training again): every page is
// then an article, and TestTypeModelLoads fails.
var typeModel = loadTypeModel(typeModelJSON)

func loadTypeModel(b []byte) *TypeModel {
	var m TypeModel
	if err := json.Unmarshal(b, &m); err != nil || len(m.Features) != nTypeFeatures {
		return nil
	}
	for i, name := range m.Features {
		if name != typeFeatureNames[i] {
			return nil
		}
	}
	return &m
}
