package dedup_test

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/winnow-go/winnow/dedup"
)

// Three extracted texts: a story, a later copy of it that differs in case,
// punctuation and a trailing line, and an unrelated story.
var stories = []struct{ url, fetched, text string }{
	{"https://harbour.example/news/breakwater", "2024-05-01",
		"The harbour board approved the new breakwater on Tuesday. Work will start in the spring and take two years, " +
			"and the quay stays open to fishing boats throughout. The board said the cost would be met from mooring fees and a government grant."},
	{"https://aggregator.example/item/88231", "2024-05-03",
		"THE HARBOUR BOARD approved the new breakwater on Tuesday -- work will start in the spring and take two years, " +
			"and the quay stays open to fishing boats throughout. The board said the cost would be met from mooring fees and a government grant. Share this story!"},
	{"https://harbour.example/news/gulls", "2024-05-02",
		"Gulls nested on the fish market roof again this year, and the council says it will not move them before the chicks have flown in August."},
}

// Cluster near-duplicate texts and pick each cluster's canonical page
// (here the earliest fetched). MinHash finds the candidates: a few lines
// of difference move more of a short text's SimHash bits than the
// default distance of 3 allows.
func ExampleCluster() {
	norm, err := dedup.NewNormalizer(dedup.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	docs := make([]dedup.Doc, len(stories))
	for i, s := range stories {
		fetched, _ := time.Parse(time.DateOnly, s.fetched)
		docs[i] = dedup.Doc{URL: s.url, FetchedAt: fetched, TextLen: len(s.text), Features: norm.Features(s.text)}
	}
	res, err := dedup.Cluster(docs, dedup.Config{Method: dedup.MethodMinHash, Threshold: 0.8})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d clusters, %d duplicates\n", res.Clusters, res.Duplicates)
	for i, d := range docs {
		if c := res.Centre[i]; c == i {
			fmt.Println(d.URL, "canonical")
		} else {
			fmt.Printf("%s copy of %s (Jaccard %.2f)\n", d.URL, docs[c].URL, dedup.Jaccard(d.Features, docs[c].Features))
		}
	}
	// Output:
	// 2 clusters, 1 duplicates
	// https://harbour.example/news/breakwater canonical
	// https://aggregator.example/item/88231 copy of https://harbour.example/news/breakwater (Jaccard 0.93)
	// https://harbour.example/news/gulls canonical
}

// A Store keeps the fingerprints of the documents seen so far on disk,
// for a crawl that checks each new page against every page before it.
// This one finds near-duplicates by MinHash (estimated Jaccard similarity
// of 3-word shingles of at least 0.8), which suits short texts; with nil
// options a new store uses SimHash within 3 bits, which suits whole
// pages.
func ExampleStore() {
	dir, err := os.MkdirTemp("", "dedup-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	st, err := dedup.OpenStore(dir, &dedup.StoreOptions{Method: dedup.MethodMinHash})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	fmt.Println("store:", st.Options())

	added, err := st.AddBatch([]dedup.Entry{
		{URL: stories[0].url, Text: stories[0].text},
		{URL: stories[2].url, Text: stories[2].text},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("added", len(added), "documents")

	for _, q := range []dedup.Entry{
		// The first story again, reformatted: case and punctuation do
		// not count.
		{URL: "https://mirror.example/1", Text: "THE HARBOUR BOARD approved the new breakwater on Tuesday -- work will start in the spring and take two years, " +
			"and the quay stays open to fishing boats throughout; the board said the cost would be met from mooring fees and a government grant."},
		// The first story with one word changed.
		{URL: "https://mirror.example/2", Text: strings.Replace(stories[0].text, "Tuesday", "Wednesday", 1)},
		// A new story.
		{URL: "https://harbour.example/news/regatta", Text: "Crews can enter this summer's regatta until the end of June at the harbour master's office on the north quay."},
	} {
		found := 0
		err := st.Query(q, func(m dedup.Match) {
			fmt.Printf("%s: near-duplicate of %s, similarity %.2f\n", q.URL, m.URL, m.Similarity)
			found++
		})
		if err != nil {
			fmt.Println(err)
		} else if found == 0 {
			fmt.Printf("%s: new\n", q.URL)
		}
	}
	// Output:
	// store: minhash threshold=0.8
	// added 2 documents
	// https://mirror.example/1: near-duplicate of https://harbour.example/news/breakwater, similarity 1.00
	// https://mirror.example/2: near-duplicate of https://harbour.example/news/breakwater, similarity 0.87
	// https://harbour.example/news/regatta: new
}

// Cluster a collection without holding it: the Streamer keeps a small
// record per text in a temporary folder and reads back, through the
// FetchFunc, only the texts that have candidates (here from memory; in
// winnow dedup, from the input file at the offsets given to Add).
func ExampleStreamer() {
	norm, err := dedup.NewNormalizer(dedup.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := dedup.NewStreamer(dedup.Config{Method: dedup.MethodMinHash, Threshold: 0.8}, norm,
		dedup.StreamOptions{MaxMemory: 64 << 20, TempDir: os.TempDir()})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	for i, st := range stories {
		d := dedup.StreamDoc{Offset: int64(i)}
		var hashes []uint64
		hashes, d.Fingerprint, d.HasFingerprint = norm.HashesAndFingerprint(st.text, norm)
		s.Sign(&d, hashes)
		if err := s.Add(d); err != nil {
			fmt.Println(err)
			return
		}
	}
	res, err := s.Finish(func(id int, off int64, n int) (dedup.Doc, string, error) {
		st := stories[off]
		fetched, _ := time.Parse(time.DateOnly, st.fetched)
		return dedup.Doc{URL: st.url, FetchedAt: fetched, TextLen: len(st.text)}, st.text, nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for {
		o, ok, err := res.Next()
		if err != nil || !ok {
			break
		}
		if o.Centre == o.ID {
			fmt.Println(stories[o.ID].url, "canonical")
		} else {
			fmt.Println(stories[o.ID].url, "duplicates", o.CentreURL)
		}
	}
	// Output:
	// https://harbour.example/news/breakwater canonical
	// https://aggregator.example/item/88231 duplicates https://harbour.example/news/breakwater
	// https://harbour.example/news/gulls canonical
}
