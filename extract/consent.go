package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/winnow-go/winnow/internal/ascii"
)

// ReasonConsent (boilerplate) marks the text of a cookie or consent
// notice: a block of at most consentMaxWords words that names cookies
// together with a word of data protection ("consent", "our partners",
// "privacy", "Einwilligung", "согласие"; consentWords), inside a dialog
// (role dialog or alertdialog, aria-modal) or an element named as a
// banner, notice, pop-up or consent box (consentParts). Consent managers
// give the inner elements of their banners names that say nothing (a
// vendor's name) or say content ("banner__content"), and their notice is
// a paragraph of dense running text: on wcxb-dev-even the density region
// of two listing pages was the notice. Both words and the container are
// needed, so a recipe for cookies, an article's sentence on browsers and
// a service page's "no cookies, no personal data" stay.
const ReasonConsent = "consent-notice"

// consentMaxWords is the longest notice: a long block is an article on
// the subject, not a banner.
const consentMaxWords = 250

// consentParts begin the class and id words of the containers of
// consent notices.
var consentParts = []string{"banner", "consent", "cookie", "gdpr", "cmp", "privacy", "notice", "modal", "popup", "overlay", "dialog"}

// consentWords name data protection beside "cookie", lower-cased, in the
// languages of the shared sets and their neighbours.
var consentWords = []string{
	"consent", "our partners", "third part", "privacy", "personalis", "personaliz",
	"your browser", "analytics", "advertising", "targeted ads",
	"einwilligung", "zustimmung", "datenschutz",
	"consentement", "partenaires", "confidentialité",
	"consentimiento", "privacidad", "consenso",
	"согласи", "конфиденциальн", "персональных данных",
}

// consentNotice reports whether a block's text is a cookie or consent
// notice (ReasonConsent).
func consentNotice(b *Block) bool {
	if b.Words == 0 || b.Words > consentMaxWords || b.punct == 0 || !ascii.ContainsFold(b.Text, "cookie") {
		return false
	}
	t := strings.ToLower(b.Text)
	for _, w := range consentWords {
		if strings.Contains(t, w) {
			return inConsentBox(b.Node)
		}
	}
	return false
}

// inConsentBox reports whether n sits in a dialog (isDialog) or an
// element named as a banner, notice or consent box (consentParts).
func inConsentBox(n *html.Node) bool {
	var buf [16]string
	for ; n != nil; n = n.Parent {
		if isDialog(n) {
			return true
		}
		for _, a := range n.Attr {
			if (a.Key == "class" || a.Key == "id") && prefixIn(nameTokens(a.Val, buf[:0]), consentParts) != "" {
				return true
			}
		}
	}
	return false
}

// dropOverlays labels the consent notices and the dialogs among
// the blocks no stage labelled yet, before the region is grown, so that
// neither outweighs the content.
func dropOverlays(p *Page) {
	total := 0
	words := map[*html.Node]int{}               // words per dialog element
	dialog := make([]*html.Node, len(p.Blocks)) // each block's nearest dialog
	for i, b := range p.Blocks {
		total += b.Words
		for n := b.Node; n != nil; n = n.Parent {
			if isDialog(n) {
				dialog[i] = n
				words[n] += b.Words
				break
			}
		}
	}
	for i, b := range p.Blocks {
		if b.Label != Unknown {
			continue
		}
		switch d := dialog[i]; {
		case consentNotice(b):
			b.Label = Boilerplate
			b.Vote(StageDensity, ReasonConsent, -1)
		case d != nil && 2*words[d] < total:
			b.Label = Boilerplate
			b.Vote(StageDensity, ReasonDialog, -1)
		}
	}
}

// ReasonDialog (boilerplate) marks a block in a dialog (role dialog or
// alertdialog, aria-modal, a <dialog> element) that holds less than half
// of the page's words: "Add items to your cart?", sign-in and
// store-choice boxes that scripts open over the page. A page that is
// mostly one dialog keeps it. A role=dialog that says aria-modal="false"
// is a panel beside the page, not a box over it: shops show a product's
// description and delivery terms in such drawers.
const ReasonDialog = "dialog"

// isDialog reports whether n is a dialog (ReasonDialog): a <dialog>, an
// element with aria-modal="true", or a role dialog or alertdialog that
// does not say aria-modal="false".
func isDialog(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	if n.DataAtom == atom.Dialog {
		return true
	}
	role, modal := false, ""
	for _, a := range n.Attr {
		switch a.Key {
		case "role":
			role = a.Val == "dialog" || a.Val == "alertdialog"
		case "aria-modal":
			modal = a.Val
		}
	}
	return modal == "true" || role && modal != "false"
}
