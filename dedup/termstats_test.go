package dedup

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

func TestTermStatsRoundTrip(t *testing.T) {
	st := NewTermStats([][]string{{"капибара", "река", "река"}, {"река", "утконос"}, {"утконос", "яйцо"}})
	var a, b bytes.Buffer
	if _, err := st.WriteTo(&a); err != nil {
		t.Fatal(err)
	}
	st.WriteTo(&b)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("the same statistics gave different bytes")
	}
	got, err := ReadTermStats(bytes.NewReader(a.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, st) {
		t.Errorf("read %+v, wrote %+v", got, st)
	}
	// Another version is refused with ErrStatsVersion.
	old := bytes.Clone(a.Bytes())
	old[4] = TermStatsVersion + 1
	if _, err := ReadTermStats(bytes.NewReader(old)); !errors.Is(err, ErrStatsVersion) {
		t.Errorf("other version: %v", err)
	}
	// Every truncation is an error, never a panic.
	for n := range a.Len() {
		if _, err := ReadTermStats(bytes.NewReader(a.Bytes()[:n])); err == nil {
			t.Errorf("truncated at %d: no error", n)
		}
	}
}

func TestTermStatsStale(t *testing.T) {
	st := &TermStats{Docs: 100}
	if st.Stale(25, 0) || !st.Stale(20, 6) || (&TermStats{}).Stale(0, 0) || !(&TermStats{}).Stale(1, 0) {
		t.Error("staleness rule")
	}
}

func FuzzReadTermStats(f *testing.F) {
	var b bytes.Buffer
	NewTermStats([][]string{{"a", "b"}, {"b"}}).WriteTo(&b)
	f.Add(b.Bytes())
	f.Add([]byte("WNTS\x01\xff\xff\xff\xff\x0f\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := ReadTermStats(bytes.NewReader(data))
		if err != nil {
			return
		}
		var out bytes.Buffer
		st.WriteTo(&out)
		again, err := ReadTermStats(&out)
		if err != nil || !reflect.DeepEqual(again, st) {
			t.Errorf("round trip of a valid file failed: %v", err)
		}
	})
}
