package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/internal/shareddata"
)

// BenchmarkRunWorkers runs `winnow run SET --out FILE --workers N` in
// process on each shared page set, with one worker and then two, and
// checks that both write the same bytes. The speed-up of a set is the
// ratio of its two times; run the benchmark several times, since other
// machines' load moves single figures by 10-20%.
func BenchmarkRunWorkers(b *testing.B) {
	data := shareddata.Require(b)
	out := filepath.Join(b.TempDir(), "out.jsonl")
	for _, set := range []string{"extract/scrapinghub/html", "extract/trafilatura/html", "extract/daniel-ru/html", "extract/daniel-zh/html", "sites/cleanportaleval", "sites/swde-book"} {
		dir := filepath.Join(data, filepath.FromSlash(set))
		var want []byte
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("set=%s/workers=%d", strings.Split(set, "/")[1], w), func(b *testing.B) {
				for b.Loop() {
					root := newRoot()
					var errOut bytes.Buffer
					root.SetErr(&errOut)
					root.SetArgs([]string{"run", dir, "--out", out, "--workers", fmt.Sprint(w)})
					if err := root.Execute(); err != nil {
						b.Fatal(err, errOut.String())
					}
				}
				got, err := os.ReadFile(out)
				if err != nil {
					b.Fatal(err)
				}
				if want == nil {
					want = got
				} else if !bytes.Equal(want, got) {
					b.Fatal("the output depends on the number of workers")
				}
			})
		}
	}
}
