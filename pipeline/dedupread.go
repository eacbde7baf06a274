package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/winnow-go/winnow/dedup"
)

// A record passes through near-duplicate detection with only its
// near-duplicate fields changed: it is written as encoding/json writes
// an object of its members, in their order (a repeated key keeps its
// first place and its last value), compacted, without HTML escaping.
// The members of a valid JSON object are found by a scan of the line
// rather than a decoder, since the record is read twice and written
// once; any other line goes through the object type, which gives the
// same errors as before.

// member is one top-level member of a record.
type member struct {
	key    string
	rawKey []byte // the key as written, quotes included, when it is written back as it is
	val    []byte
}

// record is one input record's members.
type record struct {
	members []member
	// compact is set when the line has whitespace between its tokens:
	// the values are compacted when written.
	compact bool
	// slow is set when the line went through the object type.
	slow bool
}

func (r *record) get(key string) ([]byte, bool) {
	for i := range r.members {
		if r.members[i].key == key {
			return r.members[i].val, true
		}
	}
	return nil, false
}

func (r *record) set(key string, val []byte) {
	for i := range r.members {
		if r.members[i].key == key {
			r.members[i].val = val
			return
		}
	}
	r.members = append(r.members, member{key: key, val: val})
}

func (r *record) delete(key string) {
	for i := range r.members {
		if r.members[i].key == key {
			r.members = append(r.members[:i], r.members[i+1:]...)
			return
		}
	}
}

// appendJSON appends the record as one line.
func (r *record) appendJSON(dst []byte) ([]byte, error) {
	start := len(dst)
	dst = append(dst, '{')
	for i, m := range r.members {
		if i > 0 {
			dst = append(dst, ',')
		}
		if m.rawKey != nil {
			dst = append(dst, m.rawKey...)
		} else {
			dst = append(dst, jsonValue(m.key)...)
		}
		dst = append(dst, ':')
		dst = append(dst, m.val...)
	}
	dst = append(dst, '}')
	if r.compact {
		var buf bytes.Buffer
		if err := json.Compact(&buf, dst[start:]); err != nil {
			return dst[:start], err
		}
		dst = append(dst[:start], buf.Bytes()...)
	}
	return append(dst, '\n'), nil
}

// parseRecord reads a line's members. A line that is not a JSON object
// is an error (with encoding/json's message, or "not a JSON object").
// With trusted set the line is known to be a valid JSON object (the first
// pass found it so) and is not validated again.
func parseRecord(b []byte, trusted bool) (*record, error) {
	if r, ok := scanObject(b, !trusted); ok {
		return r, nil
	}
	if trusted {
		return nil, errors.New("not the object the first pass read")
	}
	// The object type gives encoding/json's errors; a valid JSON value
	// that is no object is refused by it too.
	obj := newObject()
	if err := json.Unmarshal(b, obj); err != nil {
		return nil, err
	}
	r := &record{compact: true, slow: true}
	for _, k := range obj.keys {
		r.members = append(r.members, member{key: k, val: obj.vals[k]})
	}
	return r, nil
}

// scanObject reads the members of a line that holds one JSON object,
// checking as it goes (with validate) that it is valid JSON: strings by
// a scan of their own, other values with json.Valid. ok is false for
// anything else, which the object type then reads (or refuses) for the
// same outcome and error as encoding/json's.
func scanObject(b []byte, validate bool) (r *record, ok bool) {
	if len(b) < 2 || b[0] != '{' {
		return nil, false
	}
	r = &record{}
	i := r.skipSpace(b, 1)
	if i >= len(b) {
		return nil, false
	}
	if b[i] == '}' {
		return r, i == len(b)-1
	}
	for {
		kEnd := stringEndValid(b, i)
		if kEnd < 0 {
			return nil, false
		}
		rawKey := b[i:kEnd]
		if i = r.skipSpace(b, kEnd); i >= len(b) || b[i] != ':' {
			return nil, false
		}
		if i = r.skipSpace(b, i+1); i >= len(b) {
			return nil, false
		}
		var vEnd int
		if b[i] == '"' {
			vEnd = stringEndValid(b, i)
		} else if vEnd = r.valueEnd(b, i); validate && !json.Valid(b[i:vEnd]) {
			vEnd = -1
		}
		if vEnd < 0 {
			return nil, false
		}
		m := member{val: b[i:vEnd]}
		if plainKey(rawKey) {
			m.key, m.rawKey = string(rawKey[1:len(rawKey)-1]), rawKey
		} else if json.Unmarshal(rawKey, &m.key) != nil {
			return nil, false
		}
		if !r.replace(m) {
			r.members = append(r.members, m)
		}
		if i = r.skipSpace(b, vEnd); i >= len(b) {
			return nil, false
		}
		switch b[i] {
		case '}':
			return r, i == len(b)-1
		case ',':
			if i = r.skipSpace(b, i+1); i >= len(b) {
				return nil, false
			}
		default:
			return nil, false
		}
	}
}

// stringEndValid is the end of the JSON string starting at b[i], or -1
// when there is none or it is not valid JSON (a control character, a
// bad escape). Invalid UTF-8 is valid JSON (it decodes to U+FFFD).
func stringEndValid(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			if i++; i >= len(b) {
				return -1
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) {
					return -1
				}
				for _, h := range b[i+1 : i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return -1
					}
				}
				i += 4
			default:
				return -1
			}
		}
	}
	return -1
}

// replace sets the value of a repeated key.
func (r *record) replace(m member) bool {
	for j := range r.members {
		if r.members[j].key == m.key {
			r.members[j].val = m.val
			return true
		}
	}
	return false
}

// plainKey reports whether a quoted key is written back as it is: ASCII
// without escapes.
func plainKey(q []byte) bool {
	for _, c := range q[1 : len(q)-1] {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

func (r *record) skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		r.compact = true
		i++
	}
	return i
}

// stringEnd is the end of the string starting at b[i] (a quote).
func stringEnd(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// valueEnd is the end of the valid JSON value starting at b[i].
func (r *record) valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch c := b[i]; c {
			case '"':
				i = stringEnd(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			case ' ', '\t', '\n', '\r':
				r.compact = true
			}
		}
		return len(b)
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
	}
	return len(b)
}

// dedupFields reads the fields near-duplicate detection uses.
func dedupFields(r *record) (dedupDoc, error) {
	var dr dedupDoc
	for _, f := range []struct {
		key string
		dst *string
	}{{"url", &dr.URL}, {"text", &dr.Text}} {
		if v, ok := r.get(f.key); ok {
			if err := decodeString(v, f.dst); err != nil {
				return dedupDoc{}, fmt.Errorf("%q: %w", f.key, err)
			}
		}
	}
	for _, f := range []struct {
		key string
		dst any
	}{{"fetched_at", &dr.FetchedAt}, {"score", &dr.Score}, {"boilerplate_ratio", &dr.BoilerplateRatio}} {
		if v, ok := r.get(f.key); ok {
			if err := json.Unmarshal(v, f.dst); err != nil {
				return dedupDoc{}, fmt.Errorf("%q: %w", f.key, err)
			}
		}
	}
	return dr, nil
}

// decodeString decodes a JSON string value as encoding/json does (an
// invalid UTF-8 byte or a lone surrogate becomes U+FFFD), without its
// reflection; anything but a string goes to encoding/json.
func decodeString(v []byte, dst *string) error {
	n := len(v)
	if n < 2 || v[0] != '"' || v[n-1] != '"' {
		return json.Unmarshal(v, dst)
	}
	in := v[1 : n-1]
	if bytes.IndexByte(in, '\\') < 0 && utf8.Valid(in) {
		*dst = string(in)
		return nil
	}
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); {
		c := in[i]
		switch {
		case c == '\\' && i+1 < len(in):
			i++
			switch e := in[i]; e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(in, i+1)
				if !ok {
					return json.Unmarshal(v, dst)
				}
				i += 4
				if utf16.IsSurrogate(r) {
					r2, ok := rune(-1), false
					if i+6 < len(in) && in[i+1] == '\\' && in[i+2] == 'u' {
						r2, ok = hex4(in, i+3)
					}
					if dec := utf16.DecodeRune(r, r2); ok && dec != utf8.RuneError {
						r = dec
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
			default:
				return json.Unmarshal(v, dst)
			}
			i++
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, r)
			} else {
				out = append(out, in[i:i+size]...)
			}
			i += size
		}
	}
	*dst = string(out)
	return nil
}

// hex4 reads the four hex digits of a \u escape at in[i:].
func hex4(in []byte, i int) (rune, bool) {
	if i+4 > len(in) {
		return 0, false
	}
	var r rune
	for _, c := range in[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	return r, true
}

// doc is the canonical-choice part of a record, without features.
func (dr dedupDoc) doc() dedup.Doc {
	d := dedup.Doc{URL: dr.URL, TextLen: len(dr.Text)}
	if dr.FetchedAt != nil {
		if t, err := time.Parse(time.RFC3339, *dr.FetchedAt); err == nil {
			d.FetchedAt = t
		}
	}
	if dr.Score != nil {
		d.Score = *dr.Score
	}
	if dr.BoilerplateRatio != nil {
		d.BoilerplateRatio = *dr.BoilerplateRatio
	}
	return d
}

// readLine parses one line of the input: its record and fields, or the
// error record that stands for it (bad is set).
func readLine(b []byte, long bool, limit int, name string, line int) (rec *record, dr dedupDoc, bad bool) {
	err := fmt.Errorf("line longer than %d bytes", limit)
	if !long {
		rec, err = parseRecord(b, false)
	}
	if err == nil {
		if dr, err = dedupFields(rec); err == nil {
			return rec, dr, false
		}
	}
	rec = &record{}
	rec.set("source", jsonValue(fmt.Sprintf("%s:%d", name, line)))
	rec.set("fetched_at", json.RawMessage("null"))
	rec.set("status", jsonValue(StatusError))
	rec.set("error", jsonValue("not a JSON record: "+err.Error()))
	rec.set("text", jsonValue(""))
	return rec, dedupDoc{}, true
}
