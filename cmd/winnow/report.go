package main

import (
	"fmt"
	"html/template"
	"os"
	"sort"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/pipeline"
)

var reportTmpl = template.Must(template.New("report").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>winnow dedup report</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:64em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
.bar{background:#4a7;height:.9em;display:inline-block}
.m{font:12px monospace;color:#555}
</style></head><body>
<h1>Near-duplicate clusters</h1>
<p>{{.Docs}} records; {{.Method}}; {{.Clusters}} clusters, {{.Duplicates}} duplicates, largest cluster {{.Largest}}.</p>
<h2>Cluster sizes by SimHash distance</h2>
<p>Plain SimHash clusters (no verification) at several Hamming distances, as seed 004 draws them: how many clusters of each size.</p>
{{range .Histograms}}<h3>k = {{.K}}: {{.Clusters}} clusters</h3>
<table><tr><th>size</th><th>clusters</th><th></th></tr>
{{range .Rows}}<tr><td>{{.Label}}</td><td>{{.Count}}</td><td><span class="bar" style="width:{{.Width}}px"></span></td></tr>
{{end}}</table>
{{end}}
<h2>Top {{len .Top}} clusters</h2>
{{range .Top}}<h3>{{.Size}} pages · <span class="m">{{.ID}}</span></h3>
<p>canonical: <a href="{{.URL}}">{{.URL}}</a><br><span class="m">{{.Snippet}}</span></p>
<table>{{range .Members}}<tr><td class="m">{{.}}</td></tr>{{end}}</table>
{{end}}</body></html>
`))

type histRow struct {
	Label        string
	Count, Width int
}

type histogram struct {
	K, Clusters int
	Rows        []histRow
}

type topCluster struct {
	ID, URL, Snippet string
	Size             int
	Members          []string
}

var sizeBuckets = []struct {
	label    string
	min, max int
}{{"1", 1, 1}, {"2", 2, 2}, {"3-5", 3, 5}, {"6-10", 6, 10}, {"11-20", 11, 20}, {"21-50", 21, 50}, {"51-100", 51, 100}, {"101+", 101, 1 << 62}}

// writeDedupReport writes one self-contained HTML page: cluster-size
// histograms of plain SimHash clustering at several distances, and the
// ten largest clusters of the result with their canonical page.
func writeDedupReport(path string, docs []dedup.Doc, snippet func(int) string, res *dedup.Result, method dedup.Method, measure dedup.Measure, threshold float64) error {
	data := struct {
		Docs, Clusters, Duplicates, Largest int
		Method                              string
		Histograms                          []histogram
		Top                                 []topCluster
	}{Docs: len(docs), Clusters: res.Clusters, Duplicates: res.Duplicates, Largest: res.LargestSize}
	if method == dedup.MethodSimHash {
		data.Method = fmt.Sprintf("SimHash, %v, verified with %v >= %.2f", res.Layout, measure, threshold)
	} else {
		data.Method = fmt.Sprintf("MinHash LSH, %v, verified with %v >= %.2f", res.Bands, measure, threshold)
	}
	for _, k := range []int{2, 4, 6, 8} {
		r, err := dedup.Cluster(docs, dedup.Config{Method: dedup.MethodSimHash, K: k, NoVerify: true})
		if err != nil {
			return err
		}
		data.Histograms = append(data.Histograms, sizeHistogram(k, r))
	}
	members := map[int][]int{}
	for i, c := range res.Centre {
		members[c] = append(members[c], i)
	}
	centres := make([]int, 0, len(members))
	for c := range members {
		centres = append(centres, c)
	}
	sort.Slice(centres, func(a, b int) bool {
		if len(members[centres[a]]) != len(members[centres[b]]) {
			return len(members[centres[a]]) > len(members[centres[b]])
		}
		return centres[a] < centres[b]
	})
	for _, c := range centres[:min(10, len(centres))] {
		if len(members[c]) < 2 {
			break
		}
		tc := topCluster{ID: res.ClusterID[c], URL: docs[c].URL, Size: len(members[c]), Snippet: snippet(c)}
		for _, m := range members[c][:min(20, len(members[c]))] {
			tc.Members = append(tc.Members, docs[m].URL)
		}
		data.Top = append(data.Top, tc)
	}
	w, closeFn, err := pipeline.CreateOutput(path, os.Stdout)
	if err != nil {
		return err
	}
	if err := reportTmpl.Execute(w, data); err != nil {
		return err
	}
	return closeFn()
}

func sizeHistogram(k int, r *dedup.Result) histogram {
	size := map[int]int{}
	for _, c := range r.Centre {
		size[c]++
	}
	h := histogram{K: k, Clusters: len(size)}
	counts := make([]int, len(sizeBuckets))
	maxCount := 1
	for _, s := range size {
		for i, b := range sizeBuckets {
			if s >= b.min && s <= b.max {
				counts[i]++
				maxCount = max(maxCount, counts[i])
			}
		}
	}
	for i, b := range sizeBuckets {
		h.Rows = append(h.Rows, histRow{Label: b.label, Count: counts[i], Width: counts[i] * 300 / maxCount})
	}
	return h
}
