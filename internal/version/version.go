// Package version says which build of winnow is running: the module
// version, the VCS revision it was built from, whether the work tree had
// uncommitted changes, and when it was committed and built. The Go
// toolchain embeds all but the build time in the binary (go help
// buildinfo, runtime/debug.ReadBuildInfo); the build time is set at link
// time, if at all:
//
//	go build -ldflags "-X github.com/winnow-go/winnow/internal/version.buildTime=$(date -u +%Y-%m-%dT%H:%M:%SZ)" ./cmd/winnow
package version

import (
	"fmt"
	"runtime/debug"
	"strings"
	"time"
)

// buildTime is the build time in RFC 3339, set by the linker (see the
// package comment); "" when it was not.
var buildTime string

// Devel is the version of a build whose module version is unknown: go run,
// go test, or a build outside a VCS checkout.
const Devel = "devel"

// Info describes one build of winnow. A zero field is unknown.
type Info struct {
	Version   string    // the main module's version, as go build stamps it ("v1.2.0", "v0.0.0-20250101120000-0123456789ab+dirty"), or Devel
	Revision  string    // the VCS revision (a full commit hash)
	Modified  bool      // the work tree had uncommitted changes
	Committed time.Time // the time of the revision
	Built     time.Time // the build time, when the linker set it
	Go        string    // the Go toolchain ("go1.26.8")
}

// Read returns the build information of the running binary.
func Read() Info {
	bi, _ := debug.ReadBuildInfo()
	return FromBuildInfo(bi, buildTime)
}

// FromBuildInfo returns the Info of a build from its embedded build
// information (nil when there is none) and its build time in RFC 3339
// ("" when unknown). Read calls it with the running binary's.
func FromBuildInfo(bi *debug.BuildInfo, built string) Info {
	info := Info{Version: Devel}
	info.Built, _ = time.Parse(time.RFC3339, built)
	if bi == nil {
		return info
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		info.Version = v
	}
	info.Go = bi.GoVersion
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			info.Revision = s.Value
		case "vcs.modified":
			info.Modified = s.Value == "true"
		case "vcs.time":
			info.Committed, _ = time.Parse(time.RFC3339, s.Value)
		}
	}
	return info
}

// revisionLen is how much of the revision String shows, as git's
// abbreviations do; enough to find the commit.
const revisionLen = 12

// String formats the Info on one line: "winnow", the version, and in
// parentheses what is known of the revision (its first 12 characters),
// "modified", the commit and build times in UTC, and the Go version, in
// that order and separated by ", ":
//
//	winnow v1.2.0 (rev 0123456789ab, modified, committed 2025-01-02T03:04:05Z, built 2025-01-03T00:00:00Z, go1.26.8)
//	winnow devel (go1.26.8)
//
// The format is stable: tools and run summaries may record the line.
func (i Info) String() string {
	var parts []string
	if i.Revision != "" {
		parts = append(parts, "rev "+i.Revision[:min(len(i.Revision), revisionLen)])
	}
	if i.Modified {
		parts = append(parts, "modified")
	}
	if !i.Committed.IsZero() {
		parts = append(parts, "committed "+i.Committed.UTC().Format(time.RFC3339))
	}
	if !i.Built.IsZero() {
		parts = append(parts, "built "+i.Built.UTC().Format(time.RFC3339))
	}
	if i.Go != "" {
		parts = append(parts, i.Go)
	}
	s := "winnow " + i.Version
	if len(parts) > 0 {
		s += fmt.Sprintf(" (%s)", strings.Join(parts, ", "))
	}
	return s
}

// String returns the running binary's version line, Read().String(): for
// example "winnow v1.2.0 (rev 0123456789ab, committed
// 2025-01-02T03:04:05Z, go1.26.8)". `winnow --version` prints it.
func String() string { return Read().String() }
