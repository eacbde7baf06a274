package synth

import (
	"bytes"
	"testing"

	"github.com/winnow-go/winnow/warc"
)

// TestWriteWARC: the warc reader reads back every record, each a response
// with its page.
func TestWriteWARC(t *testing.T) {
	var b bytes.Buffer
	if err := WriteWARC(&b, []string{"Первая строка.\nВторая строка.", "Another text."}, 25); err != nil {
		t.Fatal(err)
	}
	r, err := warc.NewReader(&b)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		if rec.Type() != "response" || rec.TargetURI() == "" {
			t.Errorf("record %d: %s %s", n, rec.Type(), rec.TargetURI())
		}
		n++
	}
	if n != 25 {
		t.Errorf("%d records read back, want 25", n)
	}
	if err := WriteWARC(&b, nil, 1); err == nil {
		t.Error("no texts: no error")
	}
}
