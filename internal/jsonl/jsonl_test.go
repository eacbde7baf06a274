package jsonl

import (
	"errors"
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
