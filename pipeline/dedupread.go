package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

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
func parseRecord(b []byte) (*record, error) {
	if len(b) == 0 || b[0] != '{' || !json.Valid(b) {
		// The object type gives encoding/json's errors; a valid JSON
		// value that is no object is refused by it too.
		obj := newObject()
		if err := json.Unmarshal(b, obj); err != nil {
			return nil, err
		}
		r := &record{compact: true}
		for _, k := range obj.keys {
			r.members = append(r.members, member{key: k, val: obj.vals[k]})
		}
		return r, nil
	}
	r := &record{}
	i := 1
	for {
		i = r.skipSpace(b, i)
		if b[i] == '}' {
			return r, nil
		}
		if b[i] == ',' {
			i = r.skipSpace(b, i+1)
		}
		kEnd := stringEnd(b, i)
		rawKey := b[i:kEnd]
		i = r.skipSpace(b, kEnd)
		i = r.skipSpace(b, i+1) // the colon
		vEnd := r.valueEnd(b, i)
		m := member{val: b[i:vEnd]}
		if plainKey(rawKey) {
			m.key, m.rawKey = string(rawKey[1:len(rawKey)-1]), rawKey
		} else if err := json.Unmarshal(rawKey, &m.key); err != nil {
			return nil, err
		}
		if !r.replace(m) {
			r.members = append(r.members, m)
		}
		i = vEnd
	}
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
		dst any
	}{{"url", &dr.URL}, {"text", &dr.Text}, {"fetched_at", &dr.FetchedAt}, {"score", &dr.Score}, {"boilerplate_ratio", &dr.BoilerplateRatio}} {
		if v, ok := r.get(f.key); ok {
			if err := json.Unmarshal(v, f.dst); err != nil {
				return dedupDoc{}, fmt.Errorf("%q: %w", f.key, err)
			}
		}
	}
	return dr, nil
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
		rec, err = parseRecord(b)
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
