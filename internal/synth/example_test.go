package synth_test

import (
	"bytes"
	"fmt"

	"github.com/winnow-go/winnow/internal/synth"
	"github.com/winnow-go/winnow/warc"
)

// Synthetic crawls are real WARC: winnow's own reader reads them back.
func ExampleWriteWARC() {
	var buf bytes.Buffer
	synth.WriteWARC(&buf, []string{"A first story.\nIts second paragraph.", "Another story."}, 3)
	r, _ := warc.NewReader(&buf)
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		fmt.Println(rec.Type(), rec.TargetURI())
	}
	// Output:
	// response http://site0.example/news/0
	// response http://site1.example/news/1
	// response http://site2.example/news/2
}
