package evaluate

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/winnow-go/winnow/internal/dedupgen"
	"github.com/winnow-go/winnow/internal/jsonl"
)

// MarkedScore scores a winnow dedup output of a generated collection
// (internal/tools/gendedup: DIR/docs.jsonl and DIR/gold.jsonl) against its
// gold pairs, whose Jaccard is exact under the definition.
//
// Asserted pairs are what the output claims, each verified by the run:
// a record and the canonical record it is a duplicate_of, and a record
// and its near. Precision at a level is the share of asserted pairs whose
// gold Jaccard reaches it (a pair outside the planted families counts as
// 0: the generator's unplanted pairs are far apart). A gold pair is found
// when its two records share a cluster or one is the other's near;
// recall at a level is the share of gold pairs at or above it found.
type MarkedScore struct {
	Records  int          `json:"records"`
	Asserted int          `json:"asserted_pairs"`
	Levels   []LevelScore `json:"levels"`
}

// LevelScore is a MarkedScore at one Jaccard level, over every pair or
// (in Langs) over the pairs of one language (an asserted pair outside the
// planted families counts in every language it could be: none, so only
// in the whole).
type LevelScore struct {
	Lang      string  `json:"lang,omitempty"`
	Level     float64 `json:"level"`
	GoldPairs int     `json:"gold_pairs"`
	Found     int     `json:"found"`
	Recall    float64 `json:"recall"`
	// Precision is the share of asserted pairs at or above the level.
	Precision float64      `json:"precision"`
	Langs     []LevelScore `json:"langs,omitempty"`
}

// markedRecord is the part of an output record the score reads.
type markedRecord struct {
	URL         string          `json:"url"`
	Cluster     string          `json:"cluster"`
	DuplicateOf string          `json:"duplicate_of"`
	Near        json.RawMessage `json:"near"`
}

// ScoreMarked reads the gold pairs of the generated collection in dir and
// the winnow dedup output of dir/docs.jsonl at marked (one record per
// document, in order), and scores it at each level.
func ScoreMarked(dir, marked string, levels []float64) (*MarkedScore, error) {
	gold, err := jsonl.ReadFile[dedupgen.Pair](filepath.Join(dir, "gold.jsonl"))
	if err != nil {
		return nil, err
	}
	f, err := os.Open(marked)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return scoreMarked(gold, f, marked, levels)
}

func scoreMarked(gold []dedupgen.Pair, marked io.Reader, name string, levels []float64) (*MarkedScore, error) {
	byURL := map[string]int32{}
	clusterOf := map[string]int32{}
	var cluster []int32
	type link struct {
		a   int32
		url string
	}
	var links []link
	err := jsonl.Scan(marked, name, func(line int, b []byte) error {
		var r markedRecord
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		i := int32(len(cluster))
		byURL[r.URL] = i
		c, ok := clusterOf[r.Cluster]
		if !ok {
			c = int32(len(clusterOf))
			clusterOf[r.Cluster] = c
		}
		cluster = append(cluster, c)
		if r.DuplicateOf != "" {
			links = append(links, link{i, r.DuplicateOf})
		}
		if len(r.Near) > 0 && string(r.Near) != "null" {
			var near []any
			if err := json.Unmarshal(r.Near, &near); err != nil || len(near) != 2 {
				return fmt.Errorf("%s:%d: near is not [url, similarity]", name, line)
			}
			if u, ok := near[0].(string); ok {
				links = append(links, link{i, u})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	pairKey := func(a, b int32) [2]int32 {
		if a > b {
			a, b = b, a
		}
		return [2]int32{a, b}
	}
	jaccard := map[[2]int32]float64{}
	langOf := map[[2]int32]string{}
	langSet := map[string]bool{}
	for _, p := range gold {
		a, b := int32(p.LineA-1), int32(p.LineB-1)
		if int(a) >= len(cluster) || int(b) >= len(cluster) || a < 0 || b < 0 {
			return nil, fmt.Errorf("%s: gold pair of lines %d and %d: the output has %d records", name, p.LineA, p.LineB, len(cluster))
		}
		jaccard[pairKey(a, b)] = p.Jaccard
		langOf[pairKey(a, b)] = p.Lang
		langSet[p.Lang] = true
	}
	asserted := map[[2]int32]bool{}
	for _, l := range links {
		if j, ok := byURL[l.url]; ok && j != l.a {
			asserted[pairKey(l.a, j)] = true
		}
	}
	s := &MarkedScore{Records: len(cluster), Asserted: len(asserted)}
	score := func(lang string, level float64) LevelScore {
		ls := LevelScore{Lang: lang, Level: level}
		for p, j := range jaccard {
			if j < level || lang != "" && langOf[p] != lang {
				continue
			}
			ls.GoldPairs++
			if cluster[p[0]] == cluster[p[1]] || asserted[p] {
				ls.Found++
			}
		}
		good, all := 0, 0
		for p := range asserted {
			if lang != "" && langOf[p] != lang {
				continue
			}
			all++
			if jaccard[p] >= level {
				good++
			}
		}
		ls.Recall, ls.Precision = safeDiv(ls.Found, ls.GoldPairs), safeDiv(good, all)
		return ls
	}
	for _, level := range levels {
		ls := score("", level)
		for _, lang := range slices.Sorted(maps.Keys(langSet)) {
			ls.Langs = append(ls.Langs, score(lang, level))
		}
		s.Levels = append(s.Levels, ls)
	}
	return s, nil
}

// WriteText writes the score as a table.
func (s *MarkedScore) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%d records, %d asserted pairs (duplicate_of and near)\n", s.Records, s.Asserted)
	fmt.Fprintf(w, "%-7s %-5s %10s %9s %7s %10s\n", "level", "lang", "gold-pairs", "found", "recall", "precision")
	for _, l := range s.Levels {
		fmt.Fprintf(w, "%-7.2f %-5s %10d %9d %7.4f %10.4f\n", l.Level, "all", l.GoldPairs, l.Found, l.Recall, l.Precision)
		for _, g := range l.Langs {
			fmt.Fprintf(w, "%-7.2f %-5s %10d %9d %7.4f %10.4f\n", g.Level, g.Lang, g.GoldPairs, g.Found, g.Recall, g.Precision)
		}
	}
	_, err := fmt.Fprintln(w, "precision: the share of asserted pairs whose exact Jaccard (3-token shingles) reaches the level; recall: of the gold pairs at or above it, those in one cluster or linked by near.\nzh: the gold's tokens are runs of letters, so a Chinese token is a clause; winnow shingles Chinese characters, whose Jaccard runs higher.")
	return err
}
