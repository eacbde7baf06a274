package extract

import (
	"math"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The page-type features: counts read from the tree, the blocks and the
// URL in one pass each. Every feature is a count or a share; typeVector
// turns them into the model's inputs (log1p of counts). The names are the
// model file's column names, so renaming or reordering one needs a new
// model (go run ./internal/tools/trainpagetype).

// Feature indices.
const (
	// schema.org types in JSON-LD and microdata, by family
	fSchemaArticle = iota
	fSchemaTechArticle
	fSchemaProduct
	fSchemaOffer
	fSchemaForum
	fSchemaQA
	fSchemaList
	fSchemaCollectionPage
	fSchemaSearchPage
	fSchemaService
	fSchemaBusiness
	fSchemaOrganization
	fSchemaFAQ
	fSchemaHowTo
	fSchemaSoftware
	fSchemaWebPage
	fSchemaAboutContact
	fSchemaReview
	fSchemaEvent
	fSchemaRecipe
	fSchemaPerson
	fSchemaComment
	fJSONLDPrice
	fJSONLDItems // itemListElement entries
	fItempropPrice
	fItempropAuthor
	fItempropDate
	fItempropBody
	// og:type
	fOGArticle
	fOGProduct
	fOGWebsite
	fOGOther
	// generator families
	fGenForum
	fGenDocs
	fGenShop
	// class and id words, by family (elements carrying one)
	fNamePrice
	fNameCart
	fNameProduct
	fNameRating
	fNamePost
	fNameReply
	fNameUser
	fNameDate
	fNameCard
	fNamePager
	fNameDocs
	fNameCode
	fNameArticle
	fNameByline
	fNameService
	fNameCTA
	fNameFilter
	fNameNav
	fNameTOC
	fNameCategory
	fNameHero
	fNameForum
	// elements
	fLinks
	fNavLinks // links inside nav, aside, header or footer
	fChildLinks
	fPre
	fCode
	fTables
	fForms
	fInputs
	fButtons
	fSelects
	fTextareas
	fImages
	fH1
	fH2
	fH3
	fTime
	fArticleEl
	fSections
	fListItems
	fNestedLists
	fIframes
	fTelLinks
	fMailLinks
	fCartActions
	fNumberLinks // pagination: links whose text is a small number
	fNextLinks
	// repeated item structures
	fRepeatMax    // longest run of like siblings holding a link and text
	fRepeatRuns   // runs of 4 or more such siblings
	fRepeatItems  // items in those runs
	fPostRepeat   // longest run of like siblings holding a date and long text
	fPriceRepeat  // longest run of like siblings holding a price name
	fRepeatShare  // share of the text in the longest run
	fRepeatLinkTx // mean words per item of the longest run
	// blocks
	fBlocks
	fWords
	fLinkShare
	fLongParas
	fLongParaWords
	fMaxPara
	fHeadings
	fListBlocks
	fPreBlocks
	fPreWords
	fCellBlocks
	fLinkOnlyBlocks
	fQuestionHeads
	fYears
	fMonths
	fCurrency
	fPhones
	fTitleWords
	fTitleQuestion
	// URL
	fURLDepth
	fURLQuery
	fURLPage
	fURLYear
	fURLNumeric
	fURLSlugWords
	fURLFileExt
	fURLHome
	fURLArticle
	fURLTag
	fURLCategory
	fURLProduct
	fURLShop
	fURLCollection
	fURLService
	fURLDocs
	fURLForum
	fURLThread
	fURLQuestion
	fURLSearch
	fURLList
	fURLAbout
	fURLHostDocs
	fURLHostForum
	fURLHostShop
	nTypeFeatures
)

var typeFeatureNames = [nTypeFeatures]string{
	"schema:article", "schema:techarticle", "schema:product", "schema:offer", "schema:forum", "schema:qa",
	"schema:itemlist", "schema:collectionpage", "schema:searchpage", "schema:service", "schema:business",
	"schema:organization", "schema:faq", "schema:howto", "schema:software", "schema:webpage",
	"schema:about-contact", "schema:review", "schema:event", "schema:recipe", "schema:person", "schema:comment",
	"jsonld:price", "jsonld:items", "itemprop:price", "itemprop:author", "itemprop:date", "itemprop:body",
	"og:article", "og:product", "og:website", "og:other",
	"generator:forum", "generator:docs", "generator:shop",
	"name:price", "name:cart", "name:product", "name:rating", "name:post", "name:reply", "name:user",
	"name:date", "name:card", "name:pager", "name:docs", "name:code", "name:article", "name:byline",
	"name:service", "name:cta", "name:filter", "name:nav", "name:toc", "name:category", "name:hero", "name:forum",
	"el:links", "el:nav-links", "el:child-links", "el:pre", "el:code", "el:tables", "el:forms", "el:inputs",
	"el:buttons", "el:selects", "el:textareas", "el:images", "el:h1", "el:h2", "el:h3", "el:time",
	"el:article", "el:sections", "el:li", "el:nested-lists", "el:iframes", "el:tel", "el:mailto",
	"el:cart-actions", "el:number-links", "el:next-links",
	"repeat:max", "repeat:runs", "repeat:items", "repeat:posts", "repeat:prices", "repeat:share", "repeat:item-words",
	"blocks:n", "blocks:words", "blocks:link-share", "blocks:long-paras", "blocks:long-para-words",
	"blocks:max-para", "blocks:headings", "blocks:list", "blocks:pre", "blocks:pre-words", "blocks:cells",
	"blocks:link-only", "blocks:question-heads", "text:years", "text:months", "text:currency", "text:phones",
	"title:words", "title:question",
	"url:depth", "url:query", "url:page", "url:year", "url:numeric", "url:slug-words", "url:file-ext",
	"url:home", "url:article", "url:tag", "url:category", "url:product", "url:shop", "url:collection",
	"url:service", "url:docs", "url:forum", "url:thread", "url:question", "url:search", "url:list",
	"url:about", "host:docs", "host:forum", "host:shop",
}

// TypeFeatureNames returns the names of the page-type model's inputs, in
// the order of TypeFeatures.
func TypeFeatureNames() []string { return typeFeatureNames[:] }

// typeSignals are the raw counts of one page.
type typeSignals struct {
	f        [nTypeFeatures]float64
	jsonld   []string // schema.org types named in JSON-LD, in order, for evidence
	itemtype []string // microdata item types
	ogType   string

	// Signals of ClassifyType's decisive rules, outside the model's
	// features.
	forumPosting, qaPage bool // schema.org DiscussionForumPosting, QAPage
	productPath          bool // a product word followed by the product's own segment: /product/9780316125581
	headlinePrices       int  // prices in the short blocks around the headline
}

// vector turns counts into model inputs: log1p of every count (shares
// are already in [0, 1]).
func (s *typeSignals) vector() []float64 {
	v := make([]float64, nTypeFeatures)
	for i, x := range s.f {
		switch i {
		case fLinkShare, fRepeatShare, fTitleQuestion, fURLQuery, fURLHome, fURLFileExt:
			v[i] = x
		default:
			v[i] = math.Log1p(x)
		}
	}
	return v
}

// schemaFamily maps a schema.org type name to its feature.
var schemaFamily = map[string]int{
	"Article": fSchemaArticle, "NewsArticle": fSchemaArticle, "BlogPosting": fSchemaArticle,
	"Blog": fSchemaArticle, "Report": fSchemaArticle, "ScholarlyArticle": fSchemaArticle,
	"AnalysisNewsArticle": fSchemaArticle, "OpinionNewsArticle": fSchemaArticle,
	"ReportageNewsArticle": fSchemaArticle, "LiveBlogPosting": fSchemaArticle, "BackgroundNewsArticle": fSchemaArticle,
	"ReviewNewsArticle": fSchemaArticle, "MedicalWebPage": fSchemaArticle,
	"TechArticle": fSchemaTechArticle, "APIReference": fSchemaTechArticle,
	"Product": fSchemaProduct, "ProductGroup": fSchemaProduct, "IndividualProduct": fSchemaProduct,
	"ProductModel": fSchemaProduct, "Car": fSchemaProduct, "Vehicle": fSchemaProduct, "Book": fSchemaProduct,
	"Offer": fSchemaOffer, "AggregateOffer": fSchemaOffer, "UnitPriceSpecification": fSchemaOffer,
	"PriceSpecification": fSchemaOffer, "OfferShippingDetails": fSchemaOffer, "MerchantReturnPolicy": fSchemaOffer,
	"DiscussionForumPosting": fSchemaForum, "SocialMediaPosting": fSchemaForum, "Conversation": fSchemaForum,
	"QAPage": fSchemaQA, "Question": fSchemaQA, "Answer": fSchemaQA,
	"ItemList": fSchemaList, "OfferCatalog": fSchemaList, "ListItem": fSchemaList,
	"CollectionPage": fSchemaCollectionPage, "SearchResultsPage": fSchemaSearchPage,
	"Service": fSchemaService, "ProfessionalService": fSchemaService, "FinancialService": fSchemaService,
	"LegalService": fSchemaService, "HomeAndConstructionBusiness": fSchemaService, "MedicalBusiness": fSchemaService,
	"EmergencyService": fSchemaService, "GovernmentService": fSchemaService, "Plumber": fSchemaService,
	"Electrician": fSchemaService, "HVACBusiness": fSchemaService, "RoofingContractor": fSchemaService,
	"GeneralContractor": fSchemaService, "HousePainter": fSchemaService, "Locksmith": fSchemaService,
	"MovingCompany": fSchemaService, "AutoRepair": fSchemaService, "Dentist": fSchemaService,
	"Attorney": fSchemaService, "AccountingService": fSchemaService, "InsuranceAgency": fSchemaService,
	"RealEstateAgent": fSchemaService, "MedicalClinic": fSchemaService, "Physician": fSchemaService,
	"EmploymentAgency": fSchemaService, "TravelAgency": fSchemaService, "CleaningService": fSchemaService,
	"LocalBusiness": fSchemaBusiness, "Store": fSchemaBusiness, "Restaurant": fSchemaBusiness,
	"PostalAddress": fSchemaBusiness, "OpeningHoursSpecification": fSchemaBusiness, "GeoCoordinates": fSchemaBusiness,
	"Organization": fSchemaOrganization, "Corporation": fSchemaOrganization, "ContactPoint": fSchemaOrganization,
	"FAQPage": fSchemaFAQ, "HowTo": fSchemaHowTo, "HowToStep": fSchemaHowTo,
	"SoftwareApplication": fSchemaSoftware, "SoftwareSourceCode": fSchemaSoftware, "WebApplication": fSchemaSoftware,
	"WebPage": fSchemaWebPage, "ItemPage": fSchemaWebPage, "WebSite": fSchemaWebPage,
	"AboutPage": fSchemaAboutContact, "ContactPage": fSchemaAboutContact,
	"Review": fSchemaReview, "AggregateRating": fSchemaReview, "Rating": fSchemaReview,
	"Event": fSchemaEvent, "Recipe": fSchemaRecipe, "Person": fSchemaPerson,
	"Comment": fSchemaComment, "UserComments": fSchemaComment,
}

// nameFamily maps a word of a class or id to its feature.
var nameFamily = map[string]int{
	"price": fNamePrice, "prices": fNamePrice, "pricing": fNamePrice, "amount": fNamePrice, "currency": fNamePrice,
	"msrp": fNamePrice, "sale": fNamePrice,
	"cart": fNameCart, "basket": fNameCart, "checkout": fNameCart, "addtocart": fNameCart, "buy": fNameCart,
	"qty": fNameCart, "quantity": fNameCart, "stock": fNameCart, "sku": fNameCart, "wishlist": fNameCart,
	"product": fNameProduct, "products": fNameProduct, "pdp": fNameProduct, "variant": fNameProduct,
	"variants": fNameProduct, "swatch": fNameProduct, "woocommerce": fNameProduct, "shop": fNameProduct,
	"rating": fNameRating, "ratings": fNameRating, "stars": fNameRating, "star": fNameRating, "review": fNameRating,
	"reviews": fNameRating,
	"post":    fNamePost, "posts": fNamePost, "message": fNamePost, "messages": fNamePost, "postbody": fNamePost,
	"reply": fNameReply, "replies": fNameReply, "comment": fNameReply, "comments": fNameReply, "answer": fNameReply,
	"answers": fNameReply, "vote": fNameReply, "votes": fNameReply, "upvote": fNameReply, "quote": fNameReply,
	"author": fNameUser, "username": fNameUser, "user": fNameUser, "avatar": fNameUser, "poster": fNameUser,
	"member": fNameUser, "userinfo": fNameUser, "signature": fNameUser, "profile": fNameUser,
	"date": fNameDate, "time": fNameDate, "timestamp": fNameDate, "posted": fNameDate, "published": fNameDate,
	"datetime": fNameDate, "ago": fNameDate,
	"card": fNameCard, "cards": fNameCard, "item": fNameCard, "items": fNameCard, "tile": fNameCard,
	"tiles": fNameCard, "grid": fNameCard, "teaser": fNameCard, "listing": fNameCard, "result": fNameCard,
	"results": fNameCard, "loop": fNameCard,
	"pagination": fNamePager, "pager": fNamePager, "paging": fNamePager, "paginate": fNamePager,
	"docs": fNameDocs, "doc": fNameDocs, "documentation": fNameDocs, "api": fNameDocs, "admonition": fNameDocs,
	"markdown": fNameDocs, "rst": fNameDocs, "sphinx": fNameDocs, "md": fNameDocs, "version": fNameDocs,
	"highlight": fNameCode, "hljs": fNameCode, "syntax": fNameCode, "code": fNameCode, "sourcecode": fNameCode,
	"prism": fNameCode, "language": fNameCode, "lang": fNameCode, "codehilite": fNameCode, "chroma": fNameCode,
	"article": fNameArticle, "story": fNameArticle, "entry": fNameArticle, "hentry": fNameArticle,
	"blog": fNameArticle, "news": fNameArticle, "headline": fNameArticle,
	"byline": fNameByline, "dek": fNameByline, "standfirst": fNameByline, "kicker": fNameByline,
	"share": fNameByline, "sharing": fNameByline,
	"service": fNameService, "services": fNameService, "solutions": fNameService, "solution": fNameService,
	"testimonial": fNameService, "testimonials": fNameService, "benefits": fNameService, "features": fNameService,
	"cta": fNameCTA, "appointment": fNameCTA, "booking": fNameCTA, "consultation": fNameCTA, "contact": fNameCTA,
	"estimate": fNameCTA, "phone": fNameCTA, "call": fNameCTA,
	"filter": fNameFilter, "filters": fNameFilter, "facet": fNameFilter, "facets": fNameFilter, "sort": fNameFilter,
	"sorting": fNameFilter, "refine": fNameFilter,
	"sidebar": fNameNav, "nav": fNameNav, "navigation": fNameNav, "menu": fNameNav, "navbar": fNameNav,
	"toc": fNameTOC, "contents": fNameTOC, "outline": fNameTOC, "toctree": fNameTOC,
	"category": fNameCategory, "categories": fNameCategory, "collection": fNameCategory, "catalog": fNameCategory,
	"archive": fNameCategory, "taxonomy": fNameCategory,
	"hero": fNameHero, "banner": fNameHero, "jumbotron": fNameHero, "section": fNameHero, "elementor": fNameHero,
	"forum": fNameForum, "thread": fNameForum, "topic": fNameForum, "discussion": fNameForum, "bbpress": fNameForum,
	"phpbb": fNameForum, "xenforo": fNameForum, "discourse": fNameForum, "vbulletin": fNameForum,
}

// typeScan is the state of one walk over the tree.
type typeScan struct {
	s       *typeSignals
	memo    [256]classMemo // nameBits of recent class and id values, direct-mapped
	lists   int            // depth of ul and ol
	path    string         // the page URL's path, for child links
	navN    int            // depth of nav, aside, header and footer
	bodyLen int            // text bytes in the body
	best    run            // the longest run of like siblings with link and text
}

// run is a run of like siblings.
type run struct {
	items, text, words int
}

// nodeSum is what a subtree holds.
type nodeSum struct {
	class              string // an element's class attribute
	links, text, words int
	date, price        bool
}

// classMemo is one slot of typeScan.memo.
type classMemo struct {
	name string
	bits uint64
}

// nameBitsOf is nameBits through a small cache: pages repeat their class
// values, and a slot chosen from three bytes and the length costs less
// than hashing the whole value.
func (ts *typeScan) nameBitsOf(v string) uint64 {
	if v == "" {
		return 0
	}
	m := &ts.memo[(len(v)*31+int(v[0])*7+int(v[len(v)/2])*3+int(v[len(v)-1]))&255]
	if m.name == v {
		return m.bits
	}
	m.name, m.bits = v, nameBits(v)
	return m.bits
}

// nameBits are the name feature bits of one class or id value: bit i is
// feature fNamePrice+i (there are fewer than 64 name features). Its words
// are split at punctuation and camelCase humps and lower-cased.
func nameBits(v string) uint64 {
	var bits uint64
	var buf [16]byte
	n, start := 0, -1
	for i := 0; i <= len(v); i++ {
		var c byte
		if i < len(v) {
			c = v[i]
		}
		k := nameByte[c]
		upper := k == 2
		alnum := k != 0
		if start >= 0 && (!alnum || upper && nameByte[v[i-1]] == 3) {
			if n > 0 && n < len(buf) && nameFilter[n][buf[0]&31]&(1<<(buf[n-1]&31)) != 0 {
				if f, ok := nameFamily[string(buf[:n])]; ok {
					bits |= 1 << uint(f-fNamePrice)
				}
			}
			start, n = -1, 0
		}
		if alnum {
			if start < 0 {
				start = i
			}
			if n < len(buf) {
				if upper {
					c += 'a' - 'A'
				}
				buf[n] = c
			}
			n++
		}
	}
	return bits
}

// nameByte classifies the bytes of a class or id: 0 punctuation, 1
// digit, 2 upper-case letter, 3 lower-case letter.
var nameByte = func() (t [256]uint8) {
	for c := '0'; c <= '9'; c++ {
		t[c] = 1
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c], t[c+'a'-'A'] = 2, 3
	}
	return t
}()

// nameFilter[len][first letter] has the bit of the last letter of every
// word of nameFamily: most words of a class are in no family, and the
// filter turns them away without a map lookup.
var nameFilter = func() (f [16][32]uint32) {
	for w := range nameFamily {
		if len(w) < 16 {
			f[len(w)][w[0]&31] |= 1 << (w[len(w)-1] & 31)
		}
	}
	return f
}()

// scanType reads the page's signals.
func scanType(p *Page) *typeSignals {
	s := &typeSignals{}
	ts := &typeScan{s: s}
	if p.URL != nil {
		ts.path = p.URL.Path
		scanURL(s, p.URL.Host, p.URL.Path, p.URL.RawQuery)
	}
	if p.Doc != nil {
		ts.walk(p.Doc)
	}
	if ts.bodyLen > 0 {
		s.f[fRepeatShare] = float64(ts.best.text) / float64(ts.bodyLen)
	}
	s.f[fRepeatMax] = float64(ts.best.items)
	if ts.best.items > 0 {
		s.f[fRepeatLinkTx] = float64(ts.best.words) / float64(ts.best.items)
	}
	scanBlocks(s, p)
	return s
}

// textByte classifies the bytes of a text node: bit 0 is set for a byte
// that is not white space (space, \n, \t, \r), bit 1 for a byte after
// which a word starts (space, \n, \t).
var textByte = func() (t [256]uint8) {
	for c := range t {
		t[c] = 1
	}
	t[' '], t['\n'], t['\t'], t['\r'] = 2, 2, 2, 0
	return t
}()

// walk visits n's subtree and returns its summary.
func (ts *typeScan) walk(n *html.Node) nodeSum {
	var sum nodeSum
	switch n.Type {
	case html.TextNode:
		// bytes other than white space, and the words they start
		// (after a space, line feed or tab), without branches
		var text, words, after uint = 0, 0, 1
		for _, c := range []byte(n.Data) {
			k := textByte[c]
			in := uint(k & 1)
			text += in
			words += in & after
			after = uint(k >> 1)
		}
		sum.text, sum.words = int(text), int(words)
		return sum
	case html.ElementNode:
	case html.DocumentNode:
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			ts.walk(c)
		}
		return sum
	default:
		return sum
	}
	s := ts.s
	nav, list := false, false
	switch n.DataAtom {
	case atom.Script:
		if typ := attr(n, "type"); strings.Contains(typ, "ld+json") && n.FirstChild != nil {
			scanJSONLD(s, n.FirstChild.Data)
		}
		return sum
	case atom.Style, atom.Noscript, atom.Template, atom.Svg:
		return sum
	case atom.Meta:
		ts.meta(n)
		return sum
	case atom.A:
		ts.link(n)
	case atom.Nav, atom.Aside, atom.Header, atom.Footer:
		nav = true
		ts.navN++
	case atom.Pre:
		s.f[fPre]++
	case atom.Code:
		s.f[fCode]++
	case atom.Table:
		s.f[fTables]++
	case atom.Form:
		s.f[fForms]++
		if a := strings.ToLower(attr(n, "action")); strings.Contains(a, "cart") || strings.Contains(a, "basket") {
			s.f[fCartActions]++
		}
	case atom.Input:
		s.f[fInputs]++
		if v := attr(n, "name"); v == "add-to-cart" || v == "quantity" || v == "qty" {
			s.f[fCartActions]++
		}
	case atom.Button:
		s.f[fButtons]++
		if v := attr(n, "name"); strings.Contains(v, "cart") {
			s.f[fCartActions]++
		}
	case atom.Select:
		s.f[fSelects]++
	case atom.Textarea:
		s.f[fTextareas]++
	case atom.Img:
		s.f[fImages]++
	case atom.H1:
		s.f[fH1]++
	case atom.H2:
		s.f[fH2]++
	case atom.H3:
		s.f[fH3]++
	case atom.Time:
		s.f[fTime]++
		sum.date = true
	case atom.Article:
		s.f[fArticleEl]++
	case atom.Section:
		s.f[fSections]++
	case atom.Li:
		s.f[fListItems]++
	case atom.Ul, atom.Ol:
		if ts.lists > 0 {
			s.f[fNestedLists]++
		}
		ts.lists++
		list = true
	case atom.Iframe:
		s.f[fIframes]++
	}
	if len(n.Attr) > 0 {
		ts.attrs(n, &sum)
	}
	var prev *html.Node
	var prevClass string
	var cur run
	var curDate, curPrice, curOK int
	flushRun := func() {
		if cur.items >= 4 {
			s.f[fRepeatRuns]++
			s.f[fRepeatItems] += float64(cur.items)
		}
		if cur.items > ts.best.items {
			ts.best = cur
		}
		if x := float64(curDate); x > s.f[fPostRepeat] {
			s.f[fPostRepeat] = x
		}
		if x := float64(curPrice); x > s.f[fPriceRepeat] {
			s.f[fPriceRepeat] = x
		}
		cur, curDate, curPrice, curOK = run{}, 0, 0, 0
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		cs := ts.walk(c)
		sum.links += cs.links
		sum.text += cs.text
		sum.words += cs.words
		sum.date = sum.date || cs.date
		sum.price = sum.price || cs.price
		if c.Type != html.ElementNode {
			continue
		}
		if prev == nil || prev.DataAtom != c.DataAtom || prev.Data != c.Data || prevClass != cs.class {
			flushRun()
		}
		prev, prevClass = c, cs.class
		if cs.links > 0 && cs.text >= 12 {
			cur.items++
			cur.text += cs.text
			cur.words += cs.words
			curOK++
		}
		if cs.date && cs.words >= 20 {
			curDate++
		}
		if cs.price {
			curPrice++
		}
	}
	flushRun()
	_ = curOK
	if n.DataAtom == atom.A && n.FirstChild != nil {
		sum.links++
	}
	if n.DataAtom == atom.Body {
		ts.bodyLen = sum.text
	}
	if nav {
		ts.navN--
	}
	if list {
		ts.lists--
	}
	return sum
}

// attrs reads an element's class, id, itemprop, itemtype and rel.
func (ts *typeScan) attrs(n *html.Node, sum *nodeSum) {
	s := ts.s
	var bits uint64
	for _, a := range n.Attr {
		switch a.Key {
		case "class", "id":
			if a.Key == "class" {
				sum.class = a.Val
			}
			bits |= ts.nameBitsOf(a.Val)
		case "itemtype":
			t := a.Val
			if i := strings.LastIndexByte(strings.TrimRight(t, "/ "), '/'); i >= 0 {
				t = t[i+1:]
			}
			t = strings.TrimSpace(t)
			s.stated(t)
			if f, ok := schemaFamily[t]; ok {
				s.f[f]++
				if len(s.itemtype) < 8 {
					s.itemtype = append(s.itemtype, t)
				}
			}
		case "itemprop":
			switch strings.TrimSpace(a.Val) {
			case "price", "lowPrice", "highPrice", "priceCurrency":
				s.f[fItempropPrice]++
				sum.price = true
			case "author", "creator":
				s.f[fItempropAuthor]++
			case "datePublished", "dateCreated", "dateModified", "uploadDate":
				s.f[fItempropDate]++
				sum.date = true
			case "articleBody", "text":
				s.f[fItempropBody]++
			}
		}
	}
	for bits != 0 {
		i := 0
		for bits&(1<<uint(i)) == 0 {
			i++
		}
		bits &^= 1 << uint(i)
		f := fNamePrice + i
		s.f[f]++
		switch f {
		case fNameDate:
			sum.date = true
		case fNamePrice:
			sum.price = true
		}
	}
}

// link reads an <a>: where it goes and what it says.
func (ts *typeScan) link(n *html.Node) {
	s := ts.s
	href := attr(n, "href")
	if href == "" {
		return
	}
	s.f[fLinks]++
	if ts.navN > 0 {
		s.f[fNavLinks]++
	}
	switch {
	case strings.HasPrefix(href, "tel:"):
		s.f[fTelLinks]++
	case strings.HasPrefix(href, "mailto:"):
		s.f[fMailLinks]++
	}
	if strings.Contains(href, "cart") && (strings.Contains(href, "add-to-cart") || strings.Contains(href, "add_to_cart") || strings.Contains(href, "addtocart")) {
		s.f[fCartActions]++
	}
	if rel := attr(n, "rel"); strings.Contains(rel, "next") {
		s.f[fNextLinks]++
	}
	if p := ts.path; len(p) > 1 {
		h := href
		if i := strings.Index(h, "://"); i >= 0 {
			if j := strings.IndexByte(h[i+3:], '/'); j >= 0 {
				h = h[i+3+j:]
			} else {
				h = "/"
			}
		}
		if len(h) > len(p)+1 && strings.HasPrefix(h, p) && (p[len(p)-1] == '/' || h[len(p)] == '/') {
			s.f[fChildLinks]++
		}
	}
	if c := n.FirstChild; c != nil && c.Type == html.TextNode && c.NextSibling == nil {
		t := strings.TrimSpace(c.Data)
		if len(t) > 0 && len(t) <= 3 && allDigits(t) {
			s.f[fNumberLinks]++
		}
	}
}

// yearSegment reports whether a URL path segment is a year (19xx, 20xx).
func yearSegment(seg string) bool {
	return len(seg) == 4 && (strings.HasPrefix(seg, "19") || strings.HasPrefix(seg, "20")) && allDigits(seg)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// meta reads og:type and the generator.
func (ts *typeScan) meta(n *html.Node) {
	s := ts.s
	prop := attr(n, "property")
	if prop == "" {
		prop = attr(n, "name")
	}
	switch strings.ToLower(prop) {
	case "og:type":
		v := strings.ToLower(strings.TrimSpace(attr(n, "content")))
		s.ogType = v
		switch {
		case v == "article" || strings.HasPrefix(v, "article"):
			s.f[fOGArticle]++
		case strings.Contains(v, "product"):
			s.f[fOGProduct]++
		case v == "website":
			s.f[fOGWebsite]++
		case v != "":
			s.f[fOGOther]++
		}
	case "generator":
		v := strings.ToLower(attr(n, "content"))
		for _, g := range forumSoftware {
			if strings.Contains(v, g) {
				s.f[fGenForum]++
			}
		}
		for _, g := range docsSoftware {
			if strings.Contains(v, g) {
				s.f[fGenDocs]++
			}
		}
		for _, g := range shopSoftware {
			if strings.Contains(v, g) {
				s.f[fGenShop]++
			}
		}
	}
}

// Software that names itself in <meta name=generator>.
var (
	forumSoftware = []string{"discourse", "phpbb", "vbulletin", "xenforo", "invision", "mybb", "simple machines", "flarum", "nodebb", "bbpress", "vanilla"}
	docsSoftware  = []string{"sphinx", "mkdocs", "docusaurus", "gitbook", "vitepress", "vuepress", "antora", "docfx", "jsdoc", "doxygen", "hugo-book", "starlight", "nextra", "mintlify", "readme.io"}
	shopSoftware  = []string{"shopify", "woocommerce", "magento", "prestashop", "bigcommerce", "opencart", "shopware"}
)

// scanJSONLD reads the schema.org types of one JSON-LD script without
// decoding it: broken JSON (a trailing comma, an HTML comment around it,
// two objects in a row) still names its types.
func scanJSONLD(s *typeSignals, js string) {
	for i := 0; ; {
		j := strings.Index(js[i:], `"@type"`)
		if j < 0 {
			break
		}
		i += j + len(`"@type"`)
		k := i
		for k < len(js) && (js[k] == ' ' || js[k] == '\n' || js[k] == '\t' || js[k] == '\r' || js[k] == ':') {
			k++
		}
		if k >= len(js) {
			break
		}
		if js[k] == '[' {
			end := strings.IndexByte(js[k:], ']')
			if end < 0 {
				break
			}
			for _, t := range strings.Split(js[k+1:k+end], ",") {
				jsonldType(s, strings.Trim(strings.TrimSpace(t), `"`))
			}
			i = k + end
			continue
		}
		if js[k] != '"' {
			continue
		}
		end := strings.IndexByte(js[k+1:], '"')
		if end < 0 {
			break
		}
		jsonldType(s, js[k+1:k+1+end])
		i = k + 1 + end
	}
	if strings.Contains(js, `"price"`) || strings.Contains(js, `"lowPrice"`) {
		s.f[fJSONLDPrice]++
	}
	s.f[fJSONLDItems] += float64(strings.Count(js, `"itemListElement"`) + strings.Count(js, `"ListItem"`))
}

// stated notes the schema.org types that state the page type outright.
func (s *typeSignals) stated(t string) {
	switch t {
	case "DiscussionForumPosting":
		s.forumPosting = true
	case "QAPage":
		s.qaPage = true
	}
}

func jsonldType(s *typeSignals, t string) {
	if i := strings.LastIndexByte(t, '/'); i >= 0 {
		t = t[i+1:]
	}
	if i := strings.LastIndexByte(t, ':'); i >= 0 {
		t = t[i+1:]
	}
	s.stated(t)
	if f, ok := schemaFamily[t]; ok {
		s.f[f]++
		if len(s.jsonld) < 12 {
			s.jsonld = append(s.jsonld, t)
		}
	}
}

// urlWords maps a word of the URL's path to its feature.
var urlWords = map[string]int{
	"blog": fURLArticle, "blogs": fURLArticle, "news": fURLArticle, "article": fURLArticle,
	"articles": fURLArticle, "post": fURLArticle, "story": fURLArticle, "stories": fURLArticle,
	"insights": fURLArticle, "magazine": fURLArticle, "press": fURLArticle, "opinion": fURLArticle,
	"tag": fURLTag, "tags": fURLTag, "topic": fURLTag, "topics": fURLTag, "author": fURLTag, "label": fURLTag,
	"category": fURLCategory, "categories": fURLCategory, "cat": fURLCategory, "c": fURLCategory,
	"archive": fURLCategory, "archives": fURLCategory, "section": fURLCategory,
	"product": fURLProduct, "products": fURLProduct, "p": fURLProduct, "dp": fURLProduct, "item": fURLProduct,
	"itm": fURLProduct, "sku": fURLProduct, "pd": fURLProduct,
	"shop": fURLShop, "store": fURLShop, "buy": fURLShop, "deals": fURLShop, "sale": fURLShop,
	"collections": fURLCollection, "collection": fURLCollection, "catalog": fURLCollection,
	"browse": fURLCollection, "department": fURLCollection, "gallery": fURLCollection,
	"services": fURLService, "service": fURLService, "solutions": fURLService, "solution": fURLService,
	"pricing": fURLService, "repair": fURLService, "consulting": fURLService, "treatment": fURLService,
	"treatments": fURLService, "agency": fURLService, "company": fURLService, "industries": fURLService,
	"docs": fURLDocs, "doc": fURLDocs, "documentation": fURLDocs, "guide": fURLDocs, "guides": fURLDocs,
	"manual": fURLDocs, "reference": fURLDocs, "api": fURLDocs, "tutorial": fURLDocs, "tutorials": fURLDocs,
	"learn": fURLDocs, "help": fURLDocs, "kb": fURLDocs, "wiki": fURLDocs, "latest": fURLDocs, "stable": fURLDocs,
	"v1": fURLDocs, "v2": fURLDocs, "v3": fURLDocs, "en-us": fURLDocs, "library": fURLDocs, "howto": fURLDocs,
	"sdk": fURLDocs, "getting": fURLDocs, "started": fURLDocs, "configuration": fURLDocs, "install": fURLDocs,
	"forum": fURLForum, "forums": fURLForum, "community": fURLForum, "discussion": fURLForum,
	"discussions": fURLForum, "board": fURLForum, "boards": fURLForum, "groups": fURLForum, "r": fURLForum,
	"thread": fURLThread, "threads": fURLThread, "t": fURLThread, "viewtopic": fURLThread,
	"showthread": fURLThread, "td-p": fURLThread, "m-p": fURLThread, "comments": fURLThread,
	"questions": fURLQuestion, "question": fURLQuestion, "q": fURLQuestion, "answers": fURLQuestion,
	"ask": fURLQuestion, "qa": fURLQuestion,
	"search": fURLSearch, "results": fURLSearch, "find": fURLSearch, "s": fURLSearch,
	"best": fURLList, "top": fURLList, "list": fURLList, "lists": fURLList, "reviews": fURLList,
	"events": fURLList, "jobs": fURLList, "directory": fURLList, "listings": fURLList, "all": fURLList,
	"about": fURLAbout, "contact": fURLAbout, "team": fURLAbout, "careers": fURLAbout, "locations": fURLAbout,
}

// bbsHost says whether a host is a bulletin board's: "bbs." or "bbs6."
// first, as Chinese, Korean and Japanese forums name theirs.
func bbsHost(h string) bool {
	rest, ok := strings.CutPrefix(h, "bbs")
	rest = strings.TrimLeft(rest, "0123456789")
	return ok && strings.HasPrefix(rest, ".")
}

// threadScript says whether a page's file name (its extension cut) is a
// forum script's that shows one thread: a word that ends in "thread" or
// "topic" ("viewthread", "forumthread", "readboardthread",
// "showtopic"), or "dispbbs" (Dvbbs). urlWords has the common ones
// alone; these are the compounds.
func threadScript(name string) bool {
	return len(name) > len("thread") && (strings.HasSuffix(name, "thread") || strings.HasSuffix(name, "topic")) ||
		name == "dispbbs"
}

// scanURL reads the URL's shape.
func scanURL(s *typeSignals, host, path, query string) {
	h := strings.ToLower(host)
	for _, pre := range []string{"docs.", "doc.", "developer.", "developers.", "learn.", "help.", "support.", "api.", "wiki."} {
		if strings.HasPrefix(h, pre) {
			s.f[fURLHostDocs]++
		}
	}
	for _, pre := range []string{"forum.", "forums.", "community.", "discuss.", "discourse.", "answers.", "talk.", "board."} {
		if strings.HasPrefix(h, pre) {
			s.f[fURLHostForum]++
		}
	}
	if bbsHost(h) {
		s.f[fURLHostForum]++
	}
	for _, pre := range []string{"shop.", "store.", "buy."} {
		if strings.HasPrefix(h, pre) {
			s.f[fURLHostShop]++
		}
	}
	if strings.Contains(h, "stackexchange") || strings.Contains(h, "stackoverflow") {
		// not a site name rule: the Q&A network's hosts all say "stack"
		s.f[fURLHostForum]++
	}
	if query != "" {
		s.f[fURLQuery] = 1
		q := strings.ToLower(query)
		if strings.Contains(q, "page=") || strings.Contains(q, "p=") {
			s.f[fURLPage]++
		}
		if strings.Contains(q, "q=") || strings.Contains(q, "search") || strings.Contains(q, "query=") {
			s.f[fURLSearch]++
		}
	}
	segs := strings.Split(strings.Trim(path, "/"), "/")
	if len(segs) == 1 && segs[0] == "" {
		s.f[fURLHome] = 1
		return
	}
	s.f[fURLDepth] = float64(len(segs))
	for i, seg := range segs {
		low := strings.ToLower(seg)
		last := i == len(segs)-1
		if last {
			if dot := strings.LastIndexByte(low, '.'); dot > 0 && len(low)-dot <= 5 {
				s.f[fURLFileExt] = 1
				low = low[:dot]
			}
			s.f[fURLSlugWords] = float64(strings.Count(low, "-") + strings.Count(low, "_"))
		}
		if yearSegment(low) {
			s.f[fURLYear]++
		}
		if low != "" && allDigits(low) {
			s.f[fURLNumeric]++
			if i > 0 && segs[i-1] == "page" {
				s.f[fURLPage]++
			}
		}
		if last && threadScript(low) {
			s.f[fURLThread]++
		}
		if f, ok := urlWords[low]; ok {
			s.f[f]++
			if f == fURLProduct && !last && low != "item" {
				s.productPath = true
			}
		} else {
			// words within a segment: "product-category", "how-to-guides"
			for _, w := range strings.FieldsFunc(low, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
				if f, ok := urlWords[w]; ok && len(w) > 2 {
					s.f[f] += 0.5
				}
			}
		}
	}
}

// scanBlocks reads the text blocks.
func scanBlocks(s *typeSignals, p *Page) {
	var words, links int
	h1, titled := -1, -1
	for i, b := range p.Blocks {
		s.f[fBlocks]++
		words += b.Words
		links += b.LinkWords
		switch b.Kind {
		case Paragraph, Quote:
			if b.Words >= 40 && b.LinkWords*5 < b.Words {
				s.f[fLongParas]++
				s.f[fLongParaWords] += float64(b.Words)
			}
			if x := float64(b.Words); x > s.f[fMaxPara] {
				s.f[fMaxPara] = x
			}
		case Heading:
			s.f[fHeadings]++
			// the headline: the first h1, else the first heading that
			// begins as a part of the <title> does
			if b.Level == 1 && h1 < 0 {
				h1 = i
			} else if titled < 0 && len(b.Text) >= 8 && strings.Contains(p.Title, b.Text[:min(len(b.Text), 16)]) {
				titled = i
			}
			if strings.HasSuffix(strings.TrimSpace(b.Text), "?") {
				s.f[fQuestionHeads]++
			}
		case ListItem:
			s.f[fListBlocks]++
		case Pre:
			s.f[fPreBlocks]++
			s.f[fPreWords] += float64(b.Words)
		case TableCell:
			s.f[fCellBlocks]++
		}
		if b.Words > 0 && b.Words == b.LinkWords && b.Words >= 3 && b.Words <= 16 {
			s.f[fLinkOnlyBlocks]++
		}
		scanText(s, b.Text)
	}
	s.f[fWords] = float64(words)
	if words > 0 {
		s.f[fLinkShare] = float64(links) / float64(words)
	}
	h := h1
	if h < 0 {
		h = titled
	}
	if h >= 0 {
		var near typeSignals
		for i := max(0, h-3); i < min(len(p.Blocks), h+8); i++ {
			if b := p.Blocks[i]; b.Words <= 12 {
				scanText(&near, b.Text)
			}
		}
		s.headlinePrices = int(near.f[fCurrency])
	}
	t := strings.TrimSpace(p.Title)
	s.f[fTitleWords] = float64(CountWords(t))
	if strings.Contains(t, "?") {
		s.f[fTitleQuestion] = 1
	}
}

// scanByte marks the bytes scanText looks at: 1 a digit, 2 the first
// letter of an English month name.
var scanByte = func() (t [256]uint8) {
	for c := '0'; c <= '9'; c++ {
		t[c] = 1
	}
	for _, c := range []byte("JFMASOND") {
		t[c] = 2
	}
	return t
}()

// scanText counts years, month names, prices and phone numbers in a
// block's text.
func scanText(s *typeSignals, t string) {
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch scanByte[c] {
		case 0:
			continue
		case 1:
			j := i
			for j < len(t) && t[j] >= '0' && t[j] <= '9' {
				j++
			}
			n := j - i
			before := i == 0 || !isWordByte(t[i-1])
			after := j == len(t) || !isWordByte(t[j])
			if n == 4 && before && after && (t[i] == '1' && t[i+1] == '9' || t[i] == '2' && t[i+1] == '0') {
				s.f[fYears]++
			}
			if before && i > 0 && currencyLast[t[i-1]] && currencyBefore(t[:i]) {
				s.f[fCurrency]++
			}
			if n == 3 && before && j+5 <= len(t) && (t[j] == '-' || t[j] == '.' || t[j] == ' ' || t[j] == ')') {
				// 555-123-4567, (555) 123-4567, 555.123.4567
				k := j + 1
				if t[j] == ')' && k < len(t) && t[k] == ' ' {
					k++
				}
				m := k
				for m < len(t) && t[m] >= '0' && t[m] <= '9' {
					m++
				}
				if m-k == 3 && m+5 <= len(t) && (t[m] == '-' || t[m] == '.' || t[m] == ' ') && allDigits(t[m+1:m+5]) {
					s.f[fPhones]++
				}
			}
			i = j - 1
		case 2:
			if i+3 <= len(t) && (i == 0 || !isWordByte(t[i-1])) && monthAt(t[i:]) {
				s.f[fMonths]++
			}
		}
	}
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// currencyLast are the bytes that can end a currency sign or code, or the
// space after one: the cheap test before currencyBefore.
var currencyLast = func() (t [256]bool) {
	for _, c := range []byte("$ DRP.r") {
		t[c] = true
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = true
	}
	return t
}()

// currencyBefore reports whether a currency sign ends pre (a space
// between them allowed).
func currencyBefore(pre string) bool {
	pre = strings.TrimSuffix(pre, " ")
	for _, c := range []string{"$", "€", "£", "¥", "₹", "USD", "EUR", "GBP", "Rs.", "R$", "kr"} {
		if strings.HasSuffix(pre, c) {
			return true
		}
	}
	return false
}

var months = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

func monthAt(t string) bool {
	w := t[:3]
	for _, m := range months {
		if w == m {
			return len(t) == 3 || !(t[3] >= '0' && t[3] <= '9')
		}
	}
	return false
}
