package extract

import "bytes"

// StripTextWrapper removes a CleanEval-style wrapper line, `<text id="URL" ...>`,
// when it is the first non-empty line of b, and returns the URL it names
// with the rest of the bytes. Without such a line it returns "" and b.
// A closing `</text>` at the very end is removed too.
func StripTextWrapper(b []byte) (string, []byte) {
	rest := b
	for {
		i := bytes.IndexByte(rest, '\n')
		line := rest
		if i >= 0 {
			line = rest[:i]
		}
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 {
			if i < 0 {
				return "", b
			}
			rest = rest[i+1:]
			continue
		}
		if !bytes.HasPrefix(trimmed, []byte("<text ")) || !bytes.HasSuffix(trimmed, []byte(">")) {
			return "", b
		}
		url := attrValue(trimmed, "id")
		if i < 0 {
			return url, nil
		}
		body := rest[i+1:]
		if t := bytes.TrimRight(body, " \t\r\n"); bytes.HasSuffix(t, []byte("</text>")) {
			body = t[:len(t)-len("</text>")]
		}
		return url, body
	}
}

// attrValue returns the double-quoted value of attribute name in a start tag.
func attrValue(tag []byte, name string) string {
	key := []byte(" " + name + `="`)
	i := bytes.Index(tag, key)
	if i < 0 {
		return ""
	}
	v := tag[i+len(key):]
	j := bytes.IndexByte(v, '"')
	if j < 0 {
		return ""
	}
	return string(v[:j])
}
