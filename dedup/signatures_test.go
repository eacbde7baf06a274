package dedup

import (
	"strings"
	"testing"
)

const sigDocA = `Капибара — крупнейший из современных грызунов. Она живёт по берегам рек и озёр Южной Америки и хорошо плавает.

Передние лапы у капибары длиннее задних, а хвоста нет, поэтому кажется, что она вот-вот сядет. Днём животные отдыхают в воде.

Ок.`

// sigDocB is sigDocA reprinted: paragraphs swapped, the short last
// sentence edited, white space and case changed.
const sigDocB = `ПЕРЕДНИЕ лапы у капибары длиннее задних, а хвоста нет, поэтому кажется, что она вот-вот сядет.   Днём животные отдыхают в воде.

Капибара — крупнейший из современных грызунов. Она живёт по берегам рек и озёр Южной Америки и хорошо плавает.

Да.`

const sigDocC = `Утконос — водоплавающее млекопитающее Австралии. Он откладывает яйца, как птицы и рептилии, и выкармливает детёнышей молоком.

У самцов на задних лапах есть ядовитые шпоры.`

func TestSignatures(t *testing.T) {
	n, err := NewNormalizer(Options{})
	if err != nil {
		t.Fatal(err)
	}
	docs := []string{sigDocA, sigDocB, sigDocC}
	toks := make([][]string, len(docs))
	sents := make([][][]string, len(docs))
	for i, d := range docs {
		toks[i] = n.Tokens(d)
		sents[i] = n.SentenceTokens(d)
	}
	st := NewTermStats(toks)
	type signer func(i int) (uint64, bool)
	for _, c := range []struct {
		name string
		sign signer
		abEq bool // does the reprint keep the signature?
	}{
		{"md5", func(i int) (uint64, bool) { return SignMD5(toks[i]) }, false},
		// The edited word of the reprint is rare in this small collection,
		// so it enters the top terms: TF*IDF is sensitive to rare words.
		{"tfidf", func(i int) (uint64, bool) { return SignTFIDF(toks[i], st, 6) }, false},
		{"longsent", func(i int) (uint64, bool) { return SignLongSent(sents[i], 3) }, true},
		{"heavysent", func(i int) (uint64, bool) { return SignHeavySent(sents[i], st, 3) }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, okA := c.sign(0)
			b, okB := c.sign(1)
			x, okC := c.sign(2)
			if !okA || !okB || !okC {
				t.Fatalf("%s: no signature", c.name)
			}
			if (a == b) != c.abEq {
				t.Errorf("%s: reprint equal = %v, want %v", c.name, a == b, c.abEq)
			}
			if a == x {
				t.Errorf("%s: a different text has the same signature", c.name)
			}
		})
	}
	// TF*IDF looks at the set of terms only: reordered paragraphs keep it.
	paras := strings.Split(sigDocA, "\n\n")
	swapped := n.Tokens(paras[2] + "\n\n" + paras[1] + "\n\n" + paras[0])
	orig, _ := SignTFIDF(toks[0], st, 6)
	reordered, _ := SignTFIDF(swapped, st, 6)
	if orig != reordered {
		t.Error("tfidf: reordering changed the signature")
	}
	// MD5 ignores case and white space only.
	a, _ := SignMD5(n.Tokens(sigDocA))
	b, _ := SignMD5(n.Tokens(strings.ToUpper(strings.ReplaceAll(sigDocA, " ", "  "))))
	if a != b {
		t.Error("md5: case or white space changed the signature")
	}
	if _, ok := SignMD5(nil); ok {
		t.Error("md5 of nothing")
	}
	if _, ok := SignLongSent(nil, 3); ok {
		t.Error("longsent of nothing")
	}
	if _, ok := SignTFIDF(nil, st, 6); ok {
		t.Error("tfidf of nothing")
	}
}

// signedPairs pairs documents by shared signatures, unverified.
func signedPairs(t *testing.T, m Method, sigs [][]uint64) map[[2]int]bool {
	t.Helper()
	docs := make([]Doc, len(sigs))
	for i := range sigs {
		docs[i].Signatures = sigs[i]
	}
	pairs, _, err := FindPairs(docs, Config{Method: m, NoVerify: true})
	if err != nil {
		t.Fatal(err)
	}
	found := map[[2]int]bool{}
	for _, p := range pairs {
		if found[[2]int{p.I, p.J}] || p.I >= p.J {
			t.Errorf("pair %v repeated or out of order", p)
		}
		found[[2]int{p.I, p.J}] = true
	}
	return found
}

func TestSignedCandidates(t *testing.T) {
	// Document 3 has no signature; document 5 shares one of its two
	// signatures with 1 and 4.
	got := signedPairs(t, MethodLongSent, [][]uint64{{7}, {3}, {7}, nil, {3}, {9, 3}})
	want := map[[2]int]bool{{0, 2}: true, {1, 4}: true, {1, 5}: true, {4, 5}: true}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for p := range want {
		if !got[p] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

func TestLexRand(t *testing.T) {
	n, err := NewNormalizer(Options{})
	if err != nil {
		t.Fatal(err)
	}
	// sigDocA, sigDocB (its reprint, one word edited) and unrelated
	// texts, so that most terms are of middle frequency.
	docs := []string{sigDocA, sigDocB, sigDocC, sigDocC + " Конец.", "Совсем другой текст о погоде в горах и о снеге зимой.", "Погода в горах зимой меняется быстро, снег идёт часто."}
	toks := make([][]string, len(docs))
	for i, d := range docs {
		toks[i] = n.Tokens(d)
	}
	st := NewTermStats(toks)
	lr := NewLexRand(st, LexRandOptions{MaxDF: 0.5})
	sigs := make([][]uint64, len(docs))
	for i := range toks {
		sigs[i] = lr.Sign(toks[i])
	}
	if len(sigs[0]) == 0 || len(sigs[0]) > 10 {
		t.Fatalf("%d signatures for the first text", len(sigs[0]))
	}
	found := signedPairs(t, MethodLexRand, sigs)
	if !found[[2]int{0, 1}] || !found[[2]int{2, 3}] {
		t.Errorf("reprints not paired: %v", found)
	}
	if found[[2]int{0, 2}] || found[[2]int{1, 3}] {
		t.Errorf("different texts paired: %v", found)
	}
	again := NewLexRand(st, LexRandOptions{MaxDF: 0.5}).Sign(toks[0])
	if len(again) != len(sigs[0]) || again[0] != sigs[0][0] {
		t.Error("the same statistics gave other signatures")
	}
}
