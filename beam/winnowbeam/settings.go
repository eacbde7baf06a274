package winnowbeam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/infholder"
	"github.com/winnow-go/winnow/pipeline"
	"github.com/winnow-go/winnow/xpathrules"
)

// Settings are the options of a job. They travel to the workers inside
// the transforms (as JSON), so they hold plain values only. The zero
// value runs as winnow run does with its defaults, without
// near-duplicates.
type Settings struct {
	// SamplesPerGroup is pipeline.Options.SamplesPerGroup (0: the default).
	SamplesPerGroup int
	// TemplateSignature is what templates compare ("": content).
	TemplateSignature string
	// Markdown and Blocks add those record fields.
	Markdown, Blocks bool
	// SinglePage learns no templates.
	SinglePage bool
	// Dedup, when set, marks near-duplicates as winnow run --dedup does.
	Dedup *pipeline.DedupOptions
	// Shards is the number of output files; 0 means DefaultShards.
	Shards int
	// Gzip compresses the shards (records-*.jsonl.gz).
	Gzip bool
	// Rules are the per-site rule files of winnow run --rules
	// (xpathrules.ReadFiles reads them where the job is launched): they
	// travel with the settings, so the workers need no access to them.
	Rules []xpathrules.File `json:",omitempty"`
	// TemplatesDir is winnow run --templates DIR: saved site templates
	// are loaded from it, and those learned anew saved to it, through
	// Beam's filesystems (a local folder the workers share, gs://, s3://).
	TemplatesDir string `json:",omitempty"`
	// ComponentRounds is the number of large-star/small-star rounds that
	// find the near-duplicate components; 0 chooses it from the number
	// of files (log2 of the records expected). Fewer rounds leave more
	// links to join on one worker; the records do not depend on it.
	ComponentRounds int `json:",omitempty"`
}

func (s Settings) componentRounds(files int) int {
	if s.ComponentRounds > 0 {
		return s.ComponentRounds
	}
	return componentRounds(files)
}

// DefaultShards is Settings.Shards when it is zero.
const DefaultShards = 16

// Validate reports every broken setting in one error, before a job is
// built.
func (s Settings) Validate() error {
	var errs []error
	if s.Shards < 0 {
		errs = append(errs, fmt.Errorf("shards %d: want 0 (the default, %d) or more", s.Shards, DefaultShards))
	}
	if o, err := s.options(); err != nil {
		errs = append(errs, err)
	} else if err := o.Validate(); err != nil {
		errs = append(errs, err)
	}
	if s.Dedup != nil {
		if err := s.Dedup.Validate(); err != nil {
			errs = append(errs, err)
		} else if _, err := pipeline.NewCandidateKeyer(*s.Dedup); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("winnowbeam: %w", err)
	}
	return nil
}

func (s Settings) shards() int {
	if s.Shards <= 0 {
		return DefaultShards
	}
	return s.Shards
}

// options are the run options winnow run would use with these settings,
// the rules compiled.
func (s Settings) options() (pipeline.Options, error) {
	var rules *xpathrules.Set
	if len(s.Rules) > 0 {
		var err error
		if rules, err = xpathrules.Compile(s.Rules); err != nil {
			return pipeline.Options{}, fmt.Errorf("rules: %w", err)
		}
	}
	// Pages are read with the default size limit (pipeline.ReadInputs).
	return pipeline.Options{
		Stages: pipeline.Stages{
			Extract:  extract.Options{MaxPageBytes: extract.DefaultMaxPageBytes},
			Template: infholder.Options{Signature: infholder.Signature(s.TemplateSignature)},
			Rules:    rules,
		},
		Record:          pipeline.RecordOptions{Markdown: s.Markdown, Blocks: s.Blocks},
		SinglePage:      s.SinglePage,
		SamplesPerGroup: s.SamplesPerGroup,
		TemplatesDir:    s.TemplatesDir,
	}, nil
}

// ReadManifest reads a manifest: one path a line, blank lines and lines
// starting with # ignored, each path kept exactly as written (records
// name it in their source), as winnow run --paths-from reads it.
func ReadManifest(r io.Reader) ([]string, error) { return pipeline.ReadPaths(r) }

// ReadManifestFile reads the manifest at path through Beam's
// filesystems: a local file, or gs://, s3://, memfs:// when the
// program imports those filesystems' packages.
func ReadManifestFile(ctx context.Context, path string) ([]string, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("winnowbeam: manifest %s: %w", path, err)
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("winnowbeam: manifest %s: %w", path, err)
	}
	defer r.Close()
	return ReadManifest(r)
}

// conf carries Settings to the workers inside a transform, as JSON (a
// transform's fields must be plain values).
type conf string

func newConf(s Settings) conf {
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("winnowbeam: settings: %v", err)) // plain values: a bug
	}
	return conf(b)
}

// settings decodes what newConf encoded.
func (c conf) settings() Settings {
	var s Settings
	if err := json.Unmarshal([]byte(c), &s); err != nil {
		panic(fmt.Sprintf("winnowbeam: settings: %v", err))
	}
	return s
}
