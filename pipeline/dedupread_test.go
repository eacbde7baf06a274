package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestParseRecord: the scan of a line gives the members, the errors and
// the written bytes that the object type and encoding/json give.
func TestParseRecord(t *testing.T) {
	for _, line := range []string{
		`{"url":"u","text":"t"}`,
		`{}`, `{ }`, `{"a":1}`, `{"a" : [1, {"b": "c d"}] , "e":null}`,
		`{"a":1,"a":2,"b":3}`, `{"u\u0072l":"x","k\u00e9y":"é","k\"q":1}`,
		`{"t":"line\u2028sep <b>&amp;</b>"}`, `{"t":"bad \x01 control"}`, `{"t":"bad \q escape"}`,
		`{"t":"\ud800 lone"}`, "{\"t\":\"\xff\xfe invalid utf8\"}", `{"a":tru}`, `{"a":01}`, `{"a":1,}`, `{"a":1}}`,
		`{"a":1} x`, `{"a"}`, `{"a":}`, `{,"a":1}`, `{"a":1 "b":2}`, `[1]`, `null`, `"s"`, `{"a":"unterminated}`,
		`{"a":{"b":[1,2,{"c":"}"}]}}`, `{"a":-1.5e3,"b":true,"c":false}`, `{"url":5,"text":"x"}`,
	} {
		t.Run(line, func(t *testing.T) {
			b := []byte(line)
			got, err := parseRecord(b, false)
			obj := newObject()
			wantErr := json.Unmarshal(b, obj)
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Fatalf("error %v, encoding/json's %v", err, wantErr)
			}
			if err != nil {
				return
			}
			out, err := got.appendJSON(nil)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			w := &record{compact: true}
			for _, k := range obj.keys {
				w.members = append(w.members, member{key: k, val: obj.vals[k]})
			}
			wb, _ := w.appendJSON(nil)
			if !bytes.Equal(out, wb) {
				t.Errorf("wrote %s, want %s", out, wb)
			}
		})
	}
}

// TestDecodeString: strings decode as encoding/json decodes them.
func TestDecodeString(t *testing.T) {
	for _, v := range []string{
		`""`, `"plain"`, `"a\nb\tc\"d\\e\/f\bg\fh\ri"`, `"\u00e9\u4e2d\u0000"`, `"\ud83d\ude00 pair"`,
		`"\ud800 lone"`, `"\ud800\u0041 bad pair"`, `"\udc00 low"`, `"\ud83d\ude0"`, "\"\xff\xfe bytes\"", "\"mixed \xe2\x82 \\n\"",
		`"é直接"`, `null`, `5`,
	} {
		var got, want string
		gerr := decodeString([]byte(v), &got)
		werr := json.Unmarshal([]byte(v), &want)
		if got != want || (gerr == nil) != (werr == nil) {
			t.Errorf("%s: %q %v, encoding/json %q %v", v, got, gerr, want, werr)
		}
	}
}

// TestDedupNear: of a split pair (A-B and B-C above the threshold, A-C
// below), A and B form a cluster and C its own; C's record names B in
// near, and B's names C.
func TestDedupNear(t *testing.T) {
	var base []string
	for i := range 60 {
		base = append(base, fmt.Sprintf("word%d", i))
	}
	edit := func(ws []string, from int) []string {
		out := append([]string(nil), ws...)
		for i := from; i < from+3; i++ {
			out[i] = fmt.Sprintf("other%d", i)
		}
		return out
	}
	b := edit(base, 10)
	c := edit(b, 40)
	var in bytes.Buffer
	for i, ws := range [][]string{base, b, c} {
		fmt.Fprintf(&in, `{"url":"https://x.example/%c","text":"%s","score":%d}`+"\n", 'a'+i, strings.Join(ws, " "), 3-i)
	}
	var out bytes.Buffer
	sum, _, err := Dedup(&in, "in.jsonl", &out, DefaultDedupOptions())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if sum.Near != 2 || len(lines) != 3 {
		t.Fatalf("%d near, %d records:\n%s", sum.Near, len(lines), out.String())
	}
	for i, want := range []string{`"canonical":true}`, `"duplicate_of":"https://x.example/a","near":["https://x.example/c",0.841]}`, `"canonical":true,"near":["https://x.example/b",0.841]}`} {
		if !strings.HasSuffix(lines[i], want) {
			t.Errorf("record %d: %s\nwant it to end %s", i, lines[i], want)
		}
	}
}

// TestDedupWorkers: the output is the same bytes on one goroutine and on
// several, with batches small enough that there are many.
func TestDedupWorkers(t *testing.T) {
	var in bytes.Buffer
	for i := range 2000 {
		words := make([]string, 80)
		for w := range words {
			words[w] = fmt.Sprintf("w%d", (i/4*7919+w*31)%997)
		}
		if i%4 != 0 {
			words[i%80] = "edited"
		}
		fmt.Fprintf(&in, `{"url":"https://x.example/%d","text":"%s","n":%d}`+"\n", i, strings.Join(words, " "), i)
	}
	var outs []string
	for _, workers := range []int{1, 4} {
		var out bytes.Buffer
		opts := DefaultDedupOptions()
		opts.Workers, opts.MaxMemory, opts.TempDir = workers, 32<<20, t.TempDir()
		sum, _, err := Dedup(bytes.NewReader(in.Bytes()), "in.jsonl", &out, opts)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Duplicates < 1250 {
			t.Errorf("%d workers: %d duplicates, want 1500", workers, sum.Duplicates)
		}
		outs = append(outs, out.String())
	}
	if outs[0] != outs[1] {
		t.Error("one worker and four wrote different records")
	}
}
