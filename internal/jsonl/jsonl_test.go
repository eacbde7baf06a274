package jsonl

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestScan(t *testing.T) {
	var got []string
	err := Scan(strings.NewReader("{\"a\":1}\n\n  \r\n {\"b\":2} \r\n{\"c\":3}"), "a.jsonl", func(line int, b []byte) error {
		got = append(got, string(rune('0'+line))+string(b))
		return nil
	})
	if err != nil || strings.Join(got, ",") != `1{"a":1},4{"b":2},5{"c":3}` {
		t.Errorf("%q, err %v", got, err)
	}
	stop := errors.New("stop")
	n := 0
	if err := Scan(strings.NewReader("1\n2\n3\n"), "b.jsonl", func(int, []byte) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("err %v after %d lines", err, n)
	}
	if err := Scan(strings.NewReader(strings.Repeat("x", MaxLine+1)), "c.jsonl", func(int, []byte) error { return nil }); err == nil || !strings.HasPrefix(err.Error(), "c.jsonl: ") {
		t.Errorf("a line over MaxLine: err %v", err)
	}
}

// TestScanLimit: a line over the limit is reported without its bytes and
// the lines after it are read; a last line without a line break counts.
func TestScanLimit(t *testing.T) {
	long := strings.Repeat("x", 200000)
	in := "{\"a\":1}\n\n" + `{"b":"` + long + "\"}\n  {\"c\":3}  \n{\"d\":4}"
	type got struct {
		line int
		b    string
		long bool
	}
	var out []got
	err := ScanLimit(strings.NewReader(in), "in", 1000, func(line int, b []byte, long bool) error {
		out = append(out, got{line, string(b), long})
		return nil
	})
	want := []got{{1, `{"a":1}`, false}, {3, "", true}, {4, `{"c":3}`, false}, {5, `{"d":4}`, false}}
	if err != nil || !reflect.DeepEqual(out, want) {
		t.Fatalf("got %v, %v; want %v", out, err, want)
	}
}
