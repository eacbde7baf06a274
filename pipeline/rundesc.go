package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/winnow-go/winnow/internal/version"
)

// DescSuffix names the file beside a run's output that says what the run
// is: its inputs, the options that shape its records, and winnow's
// version. Resume refuses a run whose description is missing or differs.
const DescSuffix = ".run.json"

// ErrResume is wrapped by the errors of a refused resume.
var ErrResume = errors.New("pipeline: cannot resume")

// RunDesc describes a run: what it read and how, so that a resumed run
// can be checked to be the same run.
type RunDesc struct {
	Version string      `json:"version"`
	Inputs  []InputDesc `json:"inputs"`
	Options OptionsDesc `json:"options"`
}

// InputDesc is one input path with its size and modification time (for
// a folder: the number of its page files, their total size and the
// latest modification).
type InputDesc struct {
	Path     string `json:"path"`
	Files    int    `json:"files,omitempty"`
	Size     int64  `json:"size"`
	Modified string `json:"modified"`
}

// OptionsDesc are the options that change a run's records (the number of
// workers and the hold limit do not).
type OptionsDesc struct {
	MaxPageBytes      int           `json:"max_page_bytes"`
	Markdown          bool          `json:"markdown,omitempty"`
	Blocks            bool          `json:"blocks,omitempty"`
	SinglePage        bool          `json:"single_page,omitempty"`
	SamplesPerGroup   int           `json:"samples_per_group"`
	TemplatesDir      string        `json:"templates_dir,omitempty"`
	TemplateSignature string        `json:"template_signature,omitempty"`
	Rules             []string      `json:"rules,omitempty"`
	Render            bool          `json:"render,omitempty"`
	RenderJS          bool          `json:"render_js,omitempty"`
	Dedup             *DedupOptions `json:"dedup,omitempty"`
}

// Describe describes a run of opts (and dedup, nil for none) over paths.
func Describe(paths []string, opts Options, dedup *DedupOptions) (RunDesc, error) {
	d := RunDesc{Version: version.String()}
	for _, p := range paths {
		in, err := describeInput(p)
		if err != nil && opts.FileErrors {
			in, err = InputDesc{Path: p}, nil // its record says why
		}
		if err != nil {
			return d, err
		}
		d.Inputs = append(d.Inputs, in)
	}
	o := &d.Options
	o.MaxPageBytes, o.Markdown, o.Blocks = opts.pageLimit(), opts.Record.Markdown, opts.Record.Blocks
	o.SinglePage, o.TemplatesDir = opts.SinglePage, opts.TemplatesDir
	o.SamplesPerGroup = opts.SamplesPerGroup
	if o.SamplesPerGroup == 0 {
		o.SamplesPerGroup = DefaultSamplesPerGroup
	}
	o.TemplateSignature = string(opts.Stages.Template.Signature)
	if opts.Stages.Rules != nil {
		for _, r := range opts.Stages.Rules.Rules {
			o.Rules = append(o.Rules, fmt.Sprintf("%s:%d %s", r.File, r.Line, r.Name))
		}
	}
	if rc := opts.Stages.Render; rc != nil {
		o.Render, o.RenderJS = true, rc.Options.JS
	}
	o.Dedup = dedup
	return d, nil
}

func describeInput(p string) (InputDesc, error) {
	st, err := os.Stat(p)
	if err != nil {
		return InputDesc{}, err
	}
	in := InputDesc{Path: p, Size: st.Size(), Modified: st.ModTime().UTC().Format("2006-01-02T15:04:05.000000000Z")}
	if !st.IsDir() {
		return in, nil
	}
	in.Size, in.Modified = 0, ""
	latest := st.ModTime()
	err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !htmlFile(d.Name()) {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		in.Files++
		in.Size += info.Size()
		if info.ModTime().After(latest) {
			latest = info.ModTime()
		}
		return nil
	})
	in.Modified = latest.UTC().Format("2006-01-02T15:04:05.000000000Z")
	return in, err
}

// writeDesc writes the description beside the output.
func writeDesc(out string, d RunDesc) error {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(out+DescSuffix, append(b, '\n'), 0o644)
}

// checkDesc compares the description beside the output with d: a missing
// one, or one that differs, refuses the resume (ErrResume) and says what
// differs.
func checkDesc(out string, d RunDesc) error {
	b, err := os.ReadFile(out + DescSuffix)
	if err != nil {
		return fmt.Errorf("%w: %s%s is missing, so nothing says %s was written by this run (%v)", ErrResume, out, DescSuffix, out, err)
	}
	var was RunDesc
	if err := json.Unmarshal(b, &was); err != nil {
		return fmt.Errorf("%w: %s%s: %v", ErrResume, out, DescSuffix, err)
	}
	// Compare as written: the description's JSON is what was recorded.
	nb, _ := json.Marshal(d)
	var now RunDesc
	json.Unmarshal(nb, &now)
	if diffs := descDiff(was, now); len(diffs) > 0 {
		return fmt.Errorf("%w: this is not the run that wrote %s: %s", ErrResume, out, strings.Join(diffs, "; "))
	}
	return nil
}

// descDiff names what differs between two descriptions.
func descDiff(was, now RunDesc) []string {
	var out []string
	if was.Version != now.Version {
		out = append(out, fmt.Sprintf("winnow version %q, now %q", was.Version, now.Version))
	}
	if len(was.Inputs) != len(now.Inputs) {
		out = append(out, fmt.Sprintf("%d inputs, now %d", len(was.Inputs), len(now.Inputs)))
	}
	for i := range min(len(was.Inputs), len(now.Inputs)) {
		if a, b := was.Inputs[i], now.Inputs[i]; a != b {
			out = append(out, fmt.Sprintf("input %d was %s (%d files, %d bytes, modified %s), now %s (%d files, %d bytes, modified %s)",
				i+1, a.Path, a.Files, a.Size, a.Modified, b.Path, b.Files, b.Size, b.Modified))
		}
	}
	wo, no := reflect.ValueOf(was.Options), reflect.ValueOf(now.Options)
	for i := range wo.NumField() {
		if a, b := wo.Field(i).Interface(), no.Field(i).Interface(); !reflect.DeepEqual(a, b) {
			name := strings.Split(wo.Type().Field(i).Tag.Get("json"), ",")[0]
			ab, _ := json.Marshal(a)
			bb, _ := json.Marshal(b)
			out = append(out, fmt.Sprintf("option %s was %s, now %s", name, ab, bb))
		}
	}
	return out
}
