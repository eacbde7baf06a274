package langid

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/winnow-go/winnow/internal/shareddata"
)

// TestIdentifyShared identifies the gold texts of the shared sets whose
// language their README states: every Russian page of daniel-ru and
// Chinese page of daniel-zh and cleaneval-zh (Simplified and
// Traditional) but at most 1%.
func TestIdentifyShared(t *testing.T) {
	id := Default()
	for _, c := range []struct{ set, want string }{
		{"daniel-ru", "ru"}, {"daniel-zh", "zh"}, {"cleaneval-zh", "zh"},
	} {
		t.Run(c.set, func(t *testing.T) {
			texts := benchTexts(t, c.set)
			var wrong []string
			for i, text := range texts {
				if l, conf := id.Identify(text); l != c.want {
					wrong = append(wrong, fmt.Sprintf("text %d: %s (%.2f)", i, l, conf))
				}
			}
			if float64(len(wrong)) > 0.01*float64(len(texts)) {
				t.Errorf("%d of %d texts not %s: %v", len(wrong), len(texts), c.want, wrong)
			}
		})
	}
}

// TestIdentifyScrapinghub identifies articles of Scrapinghub in seven
// languages and scripts (the labels are the sites' languages: a Japanese
// patent office's blog, a Korean entertainment magazine, a German
// agency's blog, ...), by the benchmark's gold article body.
func TestIdentifyScrapinghub(t *testing.T) {
	data := shareddata.Require(t)
	b, err := os.ReadFile(filepath.Join(data, "extract", "scrapinghub", "ground-truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	var gold map[string]struct {
		ArticleBody string `json:"articleBody"`
	}
	if err := json.Unmarshal(b, &gold); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ id, want string }{
		{"85439e26c41c75901820d01a13e8cea7836abb58635ea3986f71a163ab0311d3", "ja"}, // lhpat-tm.com
		{"f105de6e63ca91ea482f60193f6252092557f969f2fd128ff68c0d4d6b90dd7d", "ja"}, // note100yen.com
		{"0ec95c7261d122f304728e90c983450ef1ce1e0b423546835c397d50aaf0d0f2", "ko"}, // entermedia.co.kr
		{"3c6d3381ef52ca26be2fbde19c1b0fe17d85682b726dfecf5e300c1ca34546b1", "ru"}, // wday.ru
		{"57b4dafd18cfd0531b69f81e87158648227c673ef159f8d8c87d34e34bdb21f2", "de"}, // blog.comwrap.com
		{"b3c19dd5f0612d098788fa5173e491b3280da6226b492f8fe110f4ab1896cca8", "pt"}, // mensagensreflexao.com.br
		{"b6fb53e9fb043c98eb1e6530a1074c40922e29025f5454809f3938a7c174faa3", "it"}, // remember8090.it
		{"e372e42c0a3df7b86e1c0bacf7bc14d042144a01e88833bc5a643d61b3547090", "en"}, // jpost.com, on a German president
	} {
		t.Run(c.want+"/"+c.id[:8], func(t *testing.T) {
			text := gold[c.id].ArticleBody
			if text == "" {
				t.Fatalf("no gold for %s", c.id)
			}
			if l, conf := Default().Identify(text[:min(len(text), 4<<10)]); l != c.want || conf < 0.7 {
				t.Errorf("Identify = %s %.2f, want %s", l, conf, c.want)
			}
		})
	}
}

func TestByScript(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"株式会社ユニクロの新しい店舗が東京にオープンしました。", "ja"},
		{"日本の首相は記者会見で新しい経済対策を発表した", "ja"},
		{"北京市政府昨日宣布，新的地铁线路将于明年开通，沿线居民出行将更加便利。", "zh"},
		{"这家名为の小店的咖啡馆在上海开业，吸引了很多年轻人前来拍照打卡，生意非常红火。", "zh"}, // a brand's の
		{"臺灣的總統昨天在臺北發表談話，強調兩岸關係的重要性。", "zh"},
		{"서울시는 내년부터 새로운 지하철 노선을 개통한다고 밝혔다.", "ko"},
		{"The iPhone 15 went on sale in Tokyo today: 新製品 is the word.", ""},
	} {
		l, _, ok := Default().byScript(c.text)
		if !ok {
			l = ""
		}
		if l != c.want {
			t.Errorf("byScript(%q) = %q, want %q", c.text, l, c.want)
		}
	}
}

// TestMayHaveCJK: byScript's quick test passes over Latin and Cyrillic
// text, even with typographic punctuation above U+1000, and lets through
// every script byScript decides.
func TestMayHaveCJK(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"It’s “the” end — of the line…", false},
		{"Привет, мир – «ёлка»", false},
		{"Ångström café naïve", false},
		{"a 新 b", true},
		{"ｶﾀｶﾅ", true}, // half-width katakana, U+FF66 on
		{"ᄀ", true},    // a Hangul Jamo, U+1100
		{"한국", true},
		{"ひらがな", true},
		{"\xe4\xb8", true}, // a cut rune decodes as U+FFFD: read it all
	} {
		if got := mayHaveCJK(c.text); got != c.want {
			t.Errorf("mayHaveCJK(%q) = %v, want %v", c.text, got, c.want)
		}
	}
	for _, s := range []string{"新", "ｶ", "ᄀ", "한", "ひ", "カ"} {
		if _, _, ok := Default().byScript(s); !ok {
			t.Errorf("byScript(%q) does not decide", s)
		}
	}
}

func TestChunks(t *testing.T) {
	long := strings.Repeat("word ", 100) // 500 runes
	for _, c := range []struct {
		name       string
		text       string
		size, k    int
		wantPieces int
		wantFirst  string
	}{
		{"empty", "", 100, 3, 0, ""},
		{"short", "a short text", 100, 3, 1, "a short text"},
		{"long", long, 100, 3, 3, strings.Repeat("word ", 19) + "word"},
		{"numbers left out", strings.Repeat("12 345 ", 40) + "some words here at the end", 40, 3, 1, "345 12 345 some words here at the end"},
		{"no spaces", strings.Repeat("字", 250), 100, 3, 3, strings.Repeat("字", 100)},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := chunks(c.text, c.size, c.k)
			first := ""
			if len(got) > 0 {
				first = got[0]
			}
			if len(got) != c.wantPieces || first != c.wantFirst {
				t.Errorf("chunks = %d pieces, first %q; want %d, %q", len(got), first, c.wantPieces, c.wantFirst)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New(Options{Languages: []string{"en", "xx", "qq"}}); err == nil || !strings.Contains(err.Error(), `"qq"`) {
		t.Errorf("New with unknown codes: %v", err)
	}
	if _, err := New(Options{Languages: []string{"en"}}); err != ErrTooFewLanguages {
		t.Errorf("New with one language: %v", err)
	}
	id, err := New(Options{Languages: []string{"EN", "de"}})
	if err != nil {
		t.Fatal(err)
	}
	if l, _ := id.Identify("Die Regierung hat am Mittwoch ein neues Gesetz beschlossen, das die Mieten begrenzen soll."); l != "de" {
		t.Errorf("Identify = %q, want de", l)
	}
}

// TestConcurrent shares one Identifier between goroutines (run with
// -race): lingua's detector and its lazily loaded models are read-only.
func TestConcurrent(t *testing.T) {
	id, err := New(Options{Languages: []string{"en", "fr", "es", "ru", "uk"}})
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{
		"en": "The city council voted on Tuesday to expand the bicycle lanes along the river.",
		"fr": "Le conseil municipal a voté mardi pour agrandir les pistes cyclables le long du fleuve.",
		"ru": "Городской совет во вторник проголосовал за расширение велосипедных дорожек вдоль реки.",
	}
	var wg sync.WaitGroup
	for range 8 {
		for want, text := range texts {
			wg.Go(func() {
				if l, _ := id.Identify(text); l != want {
					t.Errorf("Identify = %q, want %q", l, want)
				}
			})
		}
	}
	wg.Wait()
}

// maxRSS is the bound on the resident memory the identifier
// adds (issue 16).
const maxRSS = 100 << 20

// TestResidentMemory measures, in a child process, the resident memory
// that identifying the gold texts of wcxb-dev-even (Latin script),
// daniel-ru (Cyrillic) and daniel-zh adds, with models loaded on demand
// and with every model preloaded.
func TestResidentMemory(t *testing.T) {
	if mode := os.Getenv("LANGID_RSS_CHILD"); mode != "" {
		rssChild(t, mode == "preload")
		return
	}
	if testing.Short() {
		t.Skip("runs the test binary twice")
	}
	shareddata.Require(t)
	for _, mode := range []string{"lazy", "preload"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestResidentMemory$")
		cmd.Env = append(os.Environ(), "LANGID_RSS_CHILD="+mode)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", mode, err, out)
		}
		var added int64
		for l := range strings.Lines(string(out)) {
			if v, ok := strings.CutPrefix(strings.TrimSpace(l), "rss-added "); ok {
				added, _ = strconv.ParseInt(v, 10, 64)
			}
		}
		t.Logf("%s: the identifier adds %d MB resident", mode, added>>20)
		if added <= 0 || added > maxRSS {
			t.Errorf("%s: the identifier adds %d bytes resident, want (0, %d]\n%s", mode, added, maxRSS, out)
		}
	}
}

func rssChild(t *testing.T, preload bool) {
	var texts []string
	for _, set := range []string{"wcxb-dev-even", "daniel-ru", "daniel-zh"} {
		texts = append(texts, benchTexts(t, set)...)
	}
	debug.FreeOSMemory() // RSS counts freed pages the runtime has not yet returned
	before := vmRSS(t)
	id, err := New(Options{Preload: preload})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range texts {
		id.Identify(text)
	}
	debug.FreeOSMemory()
	fmt.Printf("rss-added %d\n", vmRSS(t)-before)
}

// vmRSS reads the process's resident set size from /proc/self/status.
func vmRSS(t *testing.T) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal("the resident size is read from /proc/self/status:", err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}

func TestIdentifyDeclared(t *testing.T) {
	en := "The city council voted on Tuesday to expand the bicycle lanes along the river, and the mayor said that the work will start in the spring of next year."
	de := "Der Stadtrat hat am Dienstag beschlossen, die Radwege entlang des Flusses auszubauen, und der Bürgermeister sagte, dass die Arbeiten im Frühjahr beginnen."
	// a table of results with a few sentences: 9 of its 52 words are
	// Portuguese common words, twice any other language's
	pt := "Classificação NASCAR Cup 2018. Nesta página você terá sempre a classificação atualizada da NASCAR até a última corrida. 1 Kyle Busch 1200 pontos, 2 Kevin Harvick 1150 pontos, 3 Martin Truex 1100 pontos, 4 Joey Logano 1050 pontos, 5 Brad Keselowski 990 pontos, 6 Kurt Busch 950 pontos, 7 Chase Elliott 930 pontos. Coloque nos seus favoritos e volte sempre para ver os resultados de cada etapa"
	da := "Byrådet har besluttet at udvide cykelstierne langs åen, og borgmesteren siger at arbejdet skal begynde til foråret, når vejret er blevet bedre i byen."
	// Indonesian: most of its common words are Malay ones too, and six
	// ("bisa", "karena") are not
	id := "Kami sudah bisa memahami karena ini adalah hal yang penting untuk kita. Mereka bisa datang ke rumah karena hujan sudah berhenti dan jalan di desa itu tidak licin lagi. Anak yang pintar itu bisa membaca buku dengan cepat karena dia rajin belajar di sekolah dan juga di rumah."
	// Russian: Bulgarian and Serbian have 14 and 11 of its words (и, в,
	// на, по, а, за), and it leads them by 13 words only its list has
	// (что, это, он, был)
	ru := "В понедельник в городе на реке открыли новый мост, и по нему уже пошли первые машины. Мэр сказал, что это только начало: в следующем году на другом берегу построят школу и больницу, а за ними новый парк. Жители говорят, что ждали мост давно, и теперь дорога до центра займёт не час, а десять минут. Он был рад, что она тоже была здесь, и мы все это видели."
	// a German article that quotes an English speech: more English words
	// than German ones, but not twice as many
	quote := "Am Dienstag hielt der Gründer eine Rede vor den Studenten, und er sagte, dass die Zukunft im Wissen liegt. You have to trust in something, your gut, destiny, life, karma, whatever. This approach has never let me down, and it has made all the difference in my life. It is the only way to do great work, and you will know when you find it."
	for _, c := range []struct {
		name, text, declared, want string
		byWords                    bool // decided by the common words, without lingua
	}{
		{"confirmed", en, "en", "en", true},
		{"wrong declaration: overruled by the words", de, "en", "de", true},
		{"close language, declared: confirmed by the words", id, "id", "id", true},
		{"close language, undeclared, a short lead: left to lingua", id, "", "id", false},
		{"close language, undeclared, a long lead", ru, "", "ru", true},
		{"a quotation in another language: left to lingua", quote, "de", "", false},
		{"no declaration", de, "", "de", true},
		{"few sentences, confirmed", pt, "pt", "pt", true},
		{"few sentences, no declaration: left to lingua", pt, "", "", false},
		{"declared, no list: left to lingua", en, "el", "en", false},
		{"close languages: left to lingua", da, "", "da", false},
		{"too short: left to lingua", "The river and the lanes.", "en", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ident := Default()
			_, _, byWords := ident.words.decide(ident.words.count(c.text), c.declared)
			if l, conf := ident.IdentifyDeclared(c.text, c.declared); c.want != "" && l != c.want || byWords != c.byWords || conf <= 0 || conf > 1 {
				t.Errorf("IdentifyDeclared = %s %.2f (by words %v), want %s (by words %v)", l, conf, byWords, c.want, c.byWords)
			}
		})
	}
}

func TestCandidates(t *testing.T) {
	de := strings.Repeat("Der Stadtrat hat am Dienstag beschlossen, die Radwege entlang des Flusses auszubauen, und der Bürgermeister sagte, dass die Arbeiten im Frühjahr beginnen. ", 3)
	id := Default()
	if got := id.words.candidates(id.words.count(de), "en"); !slices.Equal(got, []string{"en", "de"}) {
		t.Errorf("candidates of a German text declared English = %q, want en and de", got)
	}
	// Romance words shared by five languages: the declared one and the
	// three with the most words stay.
	pt := "1 de a 2 de a 3 de o 4 de la 5 que la 6 de a Interlagos, Curitiba e Goiânia; Cascavel, Londrina, Velocitta e Tarumã; o campeonato terá 12 etapas no calendário."
	if got := id.words.candidates(id.words.count(pt), "pt"); len(got) != maxNarrow || !slices.Contains(got, "pt") {
		t.Errorf("candidates of a Portuguese calendar = %q, want %d with pt", got, maxNarrow)
	}
	if got := id.words.candidates(id.words.count(pt), "ar"); got != nil {
		t.Errorf("candidates of a text declared in a language without a list = %q, want none", got)
	}
	if got := id.words.candidates(id.words.count("12 34 56"), "en"); got != nil {
		t.Errorf("candidates of no words = %q", got)
	}
	if l, conf := id.IdentifyDeclared(de, "en"); l != "de" || conf < 0.7 {
		t.Errorf("IdentifyDeclared = %s %.2f, want de, sure enough to override the declaration", l, conf)
	}
}

// TestTableStarts: firstCJK and firstMark are where their tables start,
// so the tests they shortcut give the same below them.
func TestTableStarts(t *testing.T) {
	for _, tab := range []*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul} {
		if lo := rune(tab.R16[0].Lo); lo < firstCJK {
			t.Errorf("a CJK table starts at %#x, below firstCJK", lo)
		}
	}
	if lo := rune(unicode.Mn.R16[0].Lo); lo < firstMark {
		t.Errorf("unicode.Mn starts at %#x, below firstMark", lo)
	}
}

// TestWordConfidence: the common words' confidence doubles the odds
// with each word one language's list has and another's lacks, so a
// clear sentence of running text is near certain, whatever words close
// languages share, and a handful of words is not.
func TestWordConfidence(t *testing.T) {
	wl := Default().words
	at := func(l string) int { return slices.Index(wl.langs, l) }
	counts := func(m map[string]int) wordCounts {
		var w wordCounts
		for l, n := range m {
			w.counts[at(l)] = n
		}
		w.n = 200
		return w
	}
	for _, c := range []struct {
		name     string
		counts   map[string]int
		lang     string
		min, max float64
	}{
		{"a clear lead", map[string]int{"en": 40, "nl": 26}, "en", 0.9999, 1},
		{"the lead of the ratio's 0.75", map[string]int{"en": 60, "nl": 20, "it": 15}, "en", 0.9999, 1},
		{"two words against none", map[string]int{"pt": 2}, "pt", 0.8, 0.8},
		{"one word's lead over two languages", map[string]int{"en": 5, "nl": 4, "it": 4}, "en", 0.49, 0.51},
	} {
		if got := counts(c.counts).confidence(at(c.lang), len(wl.langs)); got < c.min || got > c.max {
			t.Errorf("%s: confidence %.4f, want %.4f-%.4f", c.name, got, c.min, c.max)
		}
	}
	// Decided by the words, a plain English paragraph is as sure as
	// lingua would be, though "in", "is" and "a" are other languages'
	// words too.
	en := "The city council voted on Tuesday to expand the bicycle lanes along the river. The mayor said that the work will start in the spring of next year, and that the lanes are meant for children who ride to school. It is the second time this year that the council has voted on the plan, which was first put to the public in March by a group of parents from the north of the city."
	if l, conf := Default().IdentifyDeclared(en, "en"); l != "en" || conf < 0.99 {
		t.Errorf("IdentifyDeclared = %s %.4f, want en at 0.99 or more", l, conf)
	}
}
