package winnowbeam

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/winnow-go/winnow/infholder"
)

// The elements that cross a shuffle are encoded here, compactly, so that
// the bytes a stage shuffles are what this file writes (the shuffle-bytes
// counters add them up).

// place is where an input stands in winnow run's input order: the
// file's number in the manifest and the record's number in the file.
type place struct{ File, Rec int }

func (a place) less(b place) bool { return a.File < b.File || a.File == b.File && a.Rec < b.Rec }

// pageRef is a page as the site combiner sees it.
type pageRef struct {
	At  place
	URL string
}

// sampleOut is a sampled page's infholder sample, or its failure to
// parse (OK false).
type sampleOut struct {
	At     place
	OK     bool
	Sample infholder.Sample
}

// keyed is a record under a candidate key: its place in the output
// and, with SimHash, its fingerprint.
type keyed struct {
	ID int
	FP uint64
}

// encodeKeyed writes a keyed record: the fingerprint only when the
// method has one.
func encodeKeyed(id int, fp uint64, withFP bool) []byte {
	e := enc{}
	e.int(id)
	if withFP {
		e.b = binary.LittleEndian.AppendUint64(e.b, fp)
	}
	return e.b
}

func decodeKeyed(b []byte) (keyed, error) {
	d := dec{b: b}
	k := keyed{ID: d.int()}
	if len(d.b) > 0 {
		if fp := d.take(8); len(fp) == 8 {
			k.FP = binary.LittleEndian.Uint64(fp)
		}
	}
	return k, d.err
}

// enc appends varints and strings.
type enc struct{ b []byte }

func (e *enc) int(v int)        { e.b = binary.AppendVarint(e.b, int64(v)) }
func (e *enc) str(s string)     { e.int(len(s)); e.b = append(e.b, s...) }
func (e *enc) place(p place)    { e.int(p.File); e.int(p.Rec) }
func (e *enc) bytes(b []byte)   { e.int(len(b)); e.b = append(e.b, b...) }
func (e *enc) flag(v bool)      { e.b = append(e.b, map[bool]byte{false: 0, true: 1}[v]) }
func (e *enc) u32(v uint32)     { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *enc) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }

// dec reads what enc wrote; the first error sticks.
type dec struct {
	b   []byte
	err error
}

var errShort = errors.New("winnowbeam: element cut short")

func (d *dec) int() int {
	v, n := binary.Varint(d.b)
	if !d.skip(n) {
		return 0
	}
	return int(v)
}

func (d *dec) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if !d.skip(n) {
		return 0
	}
	return v
}

// skip passes the n bytes of a varint just read; n <= 0 (cut short or
// overflowing) is the sticking error.
func (d *dec) skip(n int) bool {
	if n <= 0 {
		d.err, d.b = errShort, nil
		return false
	}
	d.b = d.b[n:]
	return true
}

func (d *dec) take(n int) []byte {
	if n < 0 || n > len(d.b) {
		d.err, d.b = errShort, nil
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

func (d *dec) str() string   { return string(d.take(d.int())) }
func (d *dec) bytes() []byte { return d.take(d.int()) }
func (d *dec) place() place  { return place{d.int(), d.int()} }
func (d *dec) flag() bool    { b := d.take(1); return len(b) == 1 && b[0] == 1 }
func (d *dec) u32() uint32 {
	b := d.take(4)
	if len(b) < 4 {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

func encodePageRef(r pageRef) []byte {
	var e enc
	e.place(r.At)
	e.str(r.URL)
	return e.b
}

func decodePageRef(b []byte) (pageRef, error) {
	d := dec{b: b}
	r := pageRef{At: d.place(), URL: d.str()}
	return r, d.err
}

func encodeSample(s sampleOut) []byte {
	var e enc
	e.place(s.At)
	e.flag(s.OK)
	e.int(len(s.Sample.Sigs))
	for i, sig := range s.Sample.Sigs {
		e.u32(sig)
		e.uvarint(uint64(s.Sample.Words[i]))
	}
	return e.b
}

func decodeSample(b []byte) (sampleOut, error) {
	d := dec{b: b}
	s := sampleOut{At: d.place(), OK: d.flag()}
	n := d.int()
	if d.err == nil && (n < 0 || n > len(d.b)) {
		return s, errShort
	}
	s.Sample = infholder.Sample{Sigs: make([]uint32, n), Words: make([]uint16, n)}
	for i := range n {
		s.Sample.Sigs[i] = d.u32()
		s.Sample.Words[i] = uint16(d.uvarint())
	}
	return s, d.err
}

// An idLine is a record's line with its place in winnow run's output.
func encodeIDLine(id int, line []byte) []byte {
	e := enc{b: make([]byte, 0, len(line)+10)}
	e.int(id)
	e.b = append(e.b, line...)
	return e.b
}

func decodeIDLine(b []byte) (int, []byte, error) {
	d := dec{b: b}
	id := d.int()
	return id, d.b, d.err
}

// The gob coders of what only a combiner or a small join carries (a
// site's accumulator, its plan). Each type has functions of its own:
// Beam finds a coder's functions by their symbol names, which the
// instances of one generic function share.
func encodeSiteAcc(v siteAcc) ([]byte, error)   { return gobEncode(v) }
func decodeSiteAcc(b []byte) (siteAcc, error)   { return gobDecode[siteAcc](b) }
func encodeSitePlan(v sitePlan) ([]byte, error) { return gobEncode(v) }
func decodeSitePlan(b []byte) (sitePlan, error) { return gobDecode[sitePlan](b) }

func gobEncode(v any) ([]byte, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(v)
	return buf.Bytes(), err
}

func gobDecode[T any](b []byte) (T, error) {
	var v T
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&v); err != nil {
		return v, fmt.Errorf("winnowbeam: decoding %T: %w", v, err)
	}
	return v, nil
}

func registerCoders() {
	beam.RegisterCoder(reflect.TypeOf(siteAcc{}), encodeSiteAcc, decodeSiteAcc)
	beam.RegisterCoder(reflect.TypeOf(sitePlan{}), encodeSitePlan, decodeSitePlan)
}
