package pipeline

import (
	"fmt"
	"html/template"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/winnow-go/winnow/dedup"
)

// WriteRedirects writes a redirect map of the clusters: one
// "duplicate<TAB>canonical" line per record that duplicates a page under
// another URL, in input order (tabs inside URLs become spaces). It is
// winnow dedup --redirects.
func (cl *Clusters) WriteRedirects(w io.Writer) error {
	for i, d := range cl.Docs {
		if err := writeRedirect(w, d.URL, cl.Canonical[i]); err != nil {
			return err
		}
	}
	return nil
}

// writeRedirect writes one line of the redirect map, when from
// duplicates a page under another URL (to is not empty and not from).
func writeRedirect(w io.Writer, from, to string) error {
	if to == "" || from == to {
		return nil
	}
	_, err := fmt.Fprintf(w, "%s\t%s\n", strings.ReplaceAll(from, "\t", " "), strings.ReplaceAll(to, "\t", " "))
	return err
}

// reportK are the SimHash Hamming distances whose cluster-size
// histograms the report draws.
var reportK = []int{2, 4, 6, 8}

// reportTop is how many of the largest clusters the report lists, and
// reportMembers how many URLs of each.
const reportTop, reportMembers = 10, 20

// WriteDedupReport writes one self-contained HTML page about the clusters
// that Dedup found with opts (winnow dedup --report): the figures of the
// result, cluster-size histograms of plain SimHash clustering (no
// verification) at Hamming distances 2, 4, 6 and 8, as seed 004 draws
// them, and at opts' K when it is larger, and the ten largest clusters with their canonical page, the start
// of its text and up to twenty member URLs. The histograms re-cluster
// cl.Docs, which costs about as much as the dedup itself.
//
//	sum, cl, err := pipeline.Dedup(in, "in.jsonl", out, opts)
//	...
//	err = pipeline.WriteDedupReport(f, cl, opts)
func WriteDedupReport(w io.Writer, cl *Clusters, opts DedupOptions) error {
	res := cl.Result
	data := reportData{Docs: len(cl.Docs), Clusters: res.Clusters, Duplicates: res.Duplicates, Largest: res.LargestSize}
	if opts.Method == dedup.MethodSimHash {
		data.Method = fmt.Sprintf("SimHash, %v, verified with %v >= %.2f", res.Layout, opts.Measure, opts.Threshold)
	} else {
		data.Method = fmt.Sprintf("MinHash LSH, %v, verified with %v >= %.2f", res.Bands, opts.Measure, opts.Threshold)
	}
	ks := reportK
	if k := opts.config().WithDefaults().K; k > ks[len(ks)-1] {
		ks = append(slices.Clip(ks), k) // the run's k, when beyond them
	}
	for _, k := range ks {
		r, err := dedup.Cluster(cl.Docs, dedup.Config{Method: dedup.MethodSimHash, K: k, NoVerify: true})
		if err != nil {
			return err
		}
		data.Histograms = append(data.Histograms, sizeHistogram(k, r))
	}
	data.Top = topClusters(cl)
	return reportTmpl.Execute(w, data)
}

// topClusters lists the largest clusters of two or more records, largest
// first (ties by their centre's place in the input).
func topClusters(cl *Clusters) []reportCluster {
	members := map[int][]int{}
	for i, c := range cl.Result.Centre {
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
	var top []reportCluster
	for _, c := range centres[:min(reportTop, len(centres))] {
		if len(members[c]) < 2 {
			break
		}
		tc := reportCluster{ID: cl.Result.ClusterID[c], URL: cl.Docs[c].URL, Size: len(members[c]), Snippet: cl.Snippet(c)}
		for _, m := range members[c][:min(reportMembers, len(members[c]))] {
			tc.Members = append(tc.Members, cl.Docs[m].URL)
		}
		top = append(top, tc)
	}
	return top
}

type reportData struct {
	Docs, Clusters, Duplicates, Largest int
	Method                              string
	Histograms                          []reportHistogram
	Top                                 []reportCluster
}

type reportHistogram struct {
	K, Clusters int
	Rows        []reportHistRow
}

type reportHistRow struct {
	Label        string
	Count, Width int
}

type reportCluster struct {
	ID, URL, Snippet string
	Size             int
	Members          []string
}

// sizeBuckets are the rows of a cluster-size histogram.
var sizeBuckets = []struct {
	label    string
	min, max int
}{{"1", 1, 1}, {"2", 2, 2}, {"3-5", 3, 5}, {"6-10", 6, 10}, {"11-20", 11, 20}, {"21-50", 21, 50}, {"51-100", 51, 100}, {"101+", 101, 1 << 62}}

// sizeHistogram counts r's clusters by size; a bar is at most 300 pixels.
func sizeHistogram(k int, r *dedup.Result) reportHistogram {
	size := map[int]int{}
	for _, c := range r.Centre {
		size[c]++
	}
	h := reportHistogram{K: k, Clusters: len(size)}
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
		h.Rows = append(h.Rows, reportHistRow{Label: b.label, Count: counts[i], Width: counts[i] * 300 / maxCount})
	}
	return h
}

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
