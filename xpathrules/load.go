package xpathrules

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A rule file is YAML: a list of rules, or one rule. Each rule is a
// mapping:
//
//	- name: bbc news                  # optional; default file:line
//	  host: bbc.co.uk                 # or hosts: [a.com, .b.com]; required
//	  path: /news/                    # optional prefix, or a pattern with *
//	  content: //div[@id='story']     # one selector or a list of alternatives
//	  drop: [css:.share-tools, "//aside"]
//	  title: css:h1.story-headline
//	  test_url: https://www.bbc.co.uk/news/uk-123
//	  typical_words: 420              # optional (rules suggest writes it)
//
// A selector is XPath when it starts with "/", "(" or "./" (or "xpath:"),
// CSS otherwise ("css:" may say so). A FiveFilters site config (".txt",
// named after its host; a leading "." covers subdomains) is read too:
// body, strip, strip_id_or_class, title and test_url; its other keys are
// ignored.

// Error is a problem in a rule file, at a line.
type Error struct {
	File string
	Line int // 0 when the problem is the file as a whole
	Rule string
	Msg  string
}

func (e *Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
	}
	if e.Rule != "" {
		return fmt.Sprintf("%s: rule %q: %s", loc, e.Rule, e.Msg)
	}
	return loc + ": " + e.Msg
}

// maxFileBytes bounds a rule file.
const maxFileBytes = 4 << 20

// Load reads a rule file or every rule file of a folder (.yaml, .yml and
// FiveFilters .txt, in path order). It returns the rules that loaded and
// every problem found (as *Error values joined); a file with an error
// still contributes its good rules. Load is ReadFiles then Compile.
func Load(p string) (*Set, error) {
	files, err := ReadFiles(p)
	if files == nil {
		return nil, err
	}
	set, cerr := Compile(files)
	return set, errors.Join(err, cerr)
}

// File is a rule file's name (its path as given, which rules without a
// name are named after) and its content.
type File struct {
	Name string
	Data []byte
}

// ReadFiles reads what Load compiles: the rule file p, or every rule
// file of the folder p (.yaml, .yml and FiveFilters .txt, in path
// order). A file that cannot be read is left out and reported (as an
// *Error); the others are returned. A program that compiles the rules
// elsewhere (winnow-beam's workers) sends the files.
func ReadFiles(p string) ([]File, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	var names []string
	if st.IsDir() {
		err := filepath.WalkDir(p, func(f string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && ruleFile(f) {
				names = append(names, f)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(names)
		if len(names) == 0 {
			return nil, fmt.Errorf("xpathrules: %s: no .yaml, .yml or .txt rule files", p)
		}
	} else {
		names = []string{p}
	}
	files := []File{}
	var errs []error
	for _, f := range names {
		b, err := readLimited(f)
		if err != nil {
			errs = append(errs, &Error{File: f, Msg: err.Error()})
			continue
		}
		files = append(files, File{Name: f, Data: b})
	}
	return files, errors.Join(errs...)
}

// Compile parses rule files, in order (FiveFilters when the name ends
// in .txt, YAML otherwise), into a Set. It returns the rules that
// compiled and every problem found (as *Error values joined).
func Compile(files []File) (*Set, error) {
	set := &Set{}
	var errs []error
	for _, f := range files {
		var rules []*Rule
		var ferrs []error
		if strings.HasSuffix(strings.ToLower(f.Name), ".txt") {
			rules, ferrs = ParseFiveFilters(f.Name, f.Data)
		} else {
			rules, ferrs = ParseYAML(f.Name, f.Data)
		}
		set.Rules = append(set.Rules, rules...)
		errs = append(errs, ferrs...)
	}
	return set, errors.Join(errs...)
}

func ruleFile(f string) bool {
	switch strings.ToLower(filepath.Ext(f)) {
	case ".yaml", ".yml", ".txt":
		return true
	}
	return false
}

func readLimited(f string) ([]byte, error) {
	fh, err := os.Open(f)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, maxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxFileBytes {
		return nil, fmt.Errorf("larger than %d bytes", maxFileBytes)
	}
	return b, nil
}

// ParseYAML reads the rules of one YAML file; name is the file's name in
// messages. Bad rules are left out and reported; good ones are returned.
func ParseYAML(name string, b []byte) (rules []*Rule, errs []error) {
	defer func() {
		if r := recover(); r != nil {
			rules, errs = nil, []error{&Error{File: name, Msg: fmt.Sprintf("unreadable YAML: %v", r)}}
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, []error{yamlError(name, err)}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil // an empty file
	}
	root := doc.Content[0]
	var items []*yaml.Node
	switch root.Kind {
	case yaml.SequenceNode:
		items = root.Content
	case yaml.MappingNode:
		items = []*yaml.Node{root}
	default:
		return nil, []error{&Error{File: name, Line: root.Line, Msg: "want a rule (a mapping) or a list of rules"}}
	}
	for _, it := range items {
		r, rerrs := yamlRule(name, it)
		if len(rerrs) > 0 {
			errs = append(errs, rerrs...)
			continue
		}
		rules = append(rules, r)
	}
	return rules, errs
}

// yamlError turns the YAML parser's message ("yaml: line 3: ...") into an
// Error at that line.
func yamlError(name string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, after, ok := strings.Cut(rest, ":"); ok {
			if l, err := strconv.Atoi(n); err == nil {
				line, msg = l, strings.TrimSpace(after)
			}
		}
	}
	return &Error{File: name, Line: line, Msg: msg}
}

func yamlRule(file string, n *yaml.Node) (*Rule, []error) {
	if n.Kind != yaml.MappingNode {
		return nil, []error{&Error{File: file, Line: n.Line, Msg: "a rule must be a mapping (host:, content:, drop: ...)"}}
	}
	r := &Rule{File: file, Line: n.Line, Name: fmt.Sprintf("%s:%d", filepath.Base(file), n.Line)}
	var errs []error
	bad := func(at *yaml.Node, format string, args ...any) {
		errs = append(errs, &Error{File: file, Line: at.Line, Rule: r.Name, Msg: fmt.Sprintf(format, args...)})
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		vals, ok := scalars(v)
		if !ok {
			bad(v, "%s: want a string or a list of strings", k.Value)
			continue
		}
		switch k.Value {
		case "name":
			if len(vals) != 1 {
				bad(v, "name: want one string")
				continue
			}
			r.Name = vals[0]
		case "host", "hosts":
			for _, h := range vals {
				if h = strings.TrimSpace(h); h == "" || strings.ContainsAny(h, "/ ") {
					bad(v, "host %q: want a host name such as example.com or .example.com", h)
				} else {
					r.Hosts = append(r.Hosts, h)
				}
			}
		case "path":
			if len(vals) != 1 || !strings.HasPrefix(vals[0], "/") {
				bad(v, "path: want one path starting with /")
				continue
			}
			r.Path = vals[0]
		case "content", "drop", "title":
			for _, src := range vals {
				sel, err := ParseSelector(src)
				if err != nil {
					bad(v, "%s: %v", k.Value, err)
					continue
				}
				switch k.Value {
				case "content":
					r.Content = append(r.Content, sel)
				case "drop":
					r.Drop = append(r.Drop, sel)
				default:
					r.Title = append(r.Title, sel)
				}
			}
		case "test_url", "test_urls":
			r.TestURLs = append(r.TestURLs, vals...)
		case "typical_words":
			w, err := strconv.Atoi(strings.TrimSpace(strings.Join(vals, "")))
			if err != nil || w < 0 || len(vals) != 1 {
				bad(v, "typical_words: want a whole number")
				continue
			}
			r.TypicalWords = w
		default:
			bad(k, "unknown key %q (want name, host, hosts, path, content, drop, title, test_url, typical_words)", k.Value)
		}
	}
	if len(r.Hosts) == 0 {
		errs = append(errs, &Error{File: file, Line: n.Line, Rule: r.Name, Msg: "no host"})
	}
	if len(r.Content) == 0 && len(r.Drop) == 0 && len(r.Title) == 0 && len(errs) == 0 {
		errs = append(errs, &Error{File: file, Line: n.Line, Rule: r.Name, Msg: "no content, drop or title selector"})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return r, nil
}

// scalars reads a scalar or a sequence of scalars.
func scalars(v *yaml.Node) ([]string, bool) {
	switch v.Kind {
	case yaml.ScalarNode:
		return []string{v.Value}, true
	case yaml.SequenceNode:
		out := make([]string, 0, len(v.Content))
		for _, c := range v.Content {
			if c.Kind != yaml.ScalarNode {
				return nil, false
			}
			out = append(out, c.Value)
		}
		return out, true
	}
	return nil, false
}

// ParseFiveFilters reads a FiveFilters site config. The host comes from
// the file name ("example.com.txt"; ".example.com.txt" covers every
// subdomain).
func ParseFiveFilters(name string, b []byte) ([]*Rule, []error) {
	host := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	r := &Rule{File: name, Line: 1, Name: filepath.Base(name), Hosts: []string{host}}
	var errs []error
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), maxFileBytes)
	for line := 1; sc.Scan(); line++ {
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		k, v, ok := strings.Cut(t, ":")
		if !ok {
			errs = append(errs, &Error{File: name, Line: line, Rule: r.Name, Msg: fmt.Sprintf("want key: value, got %q", t)})
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		var sels *[]Selector
		switch k {
		case "body":
			sels = &r.Content
		case "strip":
			sels = &r.Drop
		case "title":
			sels = &r.Title
		case "strip_id_or_class":
			v = strings.Trim(v, `"'`)
			if v == "" || strings.ContainsAny(v, `"'`) {
				errs = append(errs, &Error{File: name, Line: line, Rule: r.Name, Msg: fmt.Sprintf("strip_id_or_class %q", v)})
				continue
			}
			v = fmt.Sprintf("//*[contains(@class,'%s') or contains(@id,'%s')]", v, v)
			sels = &r.Drop
		case "test_url":
			r.TestURLs = append(r.TestURLs, v)
			continue
		default:
			continue // FiveFilters keys winnow does not use (date, author, prune, tidy, ...)
		}
		if !strings.HasPrefix(v, "css:") {
			v = "xpath:" + v // FiveFilters selectors are XPath
		}
		sel, err := ParseSelector(v)
		if err != nil {
			errs = append(errs, &Error{File: name, Line: line, Rule: r.Name, Msg: fmt.Sprintf("%s: %v", k, err)})
			continue
		}
		*sels = append(*sels, sel)
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, &Error{File: name, Msg: err.Error()})
	}
	if len(r.Content) == 0 && len(r.Drop) == 0 && len(r.Title) == 0 {
		if len(errs) == 0 {
			errs = append(errs, &Error{File: name, Msg: "no body, strip or title"})
		}
		return nil, errs
	}
	return []*Rule{r}, errs
}
