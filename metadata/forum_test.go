package metadata

import (
	"slices"
	"testing"
)

func TestProfileLink(t *testing.T) {
	for _, c := range []struct {
		href string
		want bool
	}{
		{"/members/samuelmiz.3009205/", true},
		{"https://www.digitalpoint.com/members/ajayjunkies.1075434/", true},
		{"./memberlist.php?mode=viewprofile&u=421190&sid=03", true},
		{"member.php?u=5", true},
		{"profile.php?id=12", true},
		{"index.php?action=profile;u=7", true},
		{"/u/josh_wilmot90", true},
		{"/users/13094333/jack-scandall", true},
		{"/profile/440-jgd/", true},
		{"/members/", false},                  // the list of members
		{"/user/login", false},                // a form, not a member
		{"./memberlist.php?mode=team", false}, // the team's list
		{"https://members.example.com/", false},
		{"https://example.com/u", false},
		{"/2021/05/useful-tips", false},
		{"", false},
	} {
		if got := profileLink(c.href); got != c.want {
			t.Errorf("profileLink(%q) = %v, want %v", c.href, got, c.want)
		}
	}
}

func TestMemberName(t *testing.T) {
	for _, c := range []struct {
		name string
		want bool
	}{
		{"JGD", true}, {"josh_wilmot90", true}, {"b.scherer", true}, {"Biggie-Cheese", true},
		{"Outer Armatonisdaristan", true}, {"R C-R", true},
		{"Guest", false}, {"Moderator", false}, {"x", false}, {"2024", false},
		{"Re: how to fix this?", false}, {"View the profile of a member of this board", false},
	} {
		if got := memberName(c.name); got != c.want {
			t.Errorf("memberName(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestForumStarter: a thread's author is its opening post's, which a
// forum names by a link to the member's profile; the replies' authors,
// marked as a Comment's in microdata, are not the page's; a member's
// user name in the thread's JSON-LD is its author.
func TestForumStarter(t *testing.T) {
	thread := `<html><body><header><a href="/members/site-admin.1/">Site Admin</a></header>
<h1>Ultimate graphics card guide</h1><p>Thread starter <a href="/members/samuelmiz.3009205/" class="username">SamuelMIz</a></p>
<article><p>Here is my guide to every card.</p></article>
<article itemscope itemtype="https://schema.org/Comment https://schema.org/CreativeWork"><div itemprop="author" itemscope itemtype="https://schema.org/Person">
<a href="/members/ralston18.1616259/"><span itemprop="name">Ralston18</span></a></div><p>Thanks for this.</p></article>
</body></html>`
	if got := readAs(t, thread, "forum").Authors; !slices.Equal(got, []string{"SamuelMIz"}) {
		t.Errorf("a thread's authors = %q, want its starter's", got)
	}
	if got := readAs(t, thread, "article").Authors; len(got) != 0 {
		t.Errorf("an article's authors = %q: a profile link names a forum's member, a Comment's author a commenter", got)
	}
	ld := `<html><head><script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"AI discussion","author":{"@type":"Person","name":"JGD"}}</script></head>
<body><h1>AI discussion</h1><p>It depends.</p></body></html>`
	if got := readAs(t, ld, "forum").Authors; !slices.Equal(got, []string{"JGD"}) {
		t.Errorf("a thread's JSON-LD author = %q, want JGD", got)
	}
	article := `<html><body><h1>Materials</h1><span itemprop="author" itemscope itemtype="http://schema.org/Person"><span itemprop="name">Carlos Nadalim</span></span>
<p>Text of the article, long enough.</p><section><article itemscope itemtype="http://schema.org/Comment"><cite itemprop="author" itemscope itemtype="http://schema.org/Person">Karol</cite><p>Nice.</p></article></section></body></html>`
	if got := readAs(t, article, "article").Authors; !slices.Equal(got, []string{"Carlos Nadalim"}) {
		t.Errorf("an article's authors = %q, want its author without the commenters", got)
	}
}

func TestOnSite(t *testing.T) {
	c := &collector{host: "tomshardware.com"}
	for _, c2 := range []struct {
		href string
		want bool
	}{
		{"/members/ann.1/", true},
		{"https://forums.tomshardware.com/members/ann.1/", true},
		{"//tomshardware.com/u/ann", true},
		{"HTTPS://www.youtube.com/user/ann", false},
		{"https://nottomshardware.com/u/ann", false},
	} {
		if got := c.onSite(c2.href); got != c2.want {
			t.Errorf("onSite(%q) = %v, want %v", c2.href, got, c2.want)
		}
	}
	if !(&collector{}).onSite("https://www.youtube.com/user/ann") {
		t.Error("without a host every link should be the site's")
	}
}
