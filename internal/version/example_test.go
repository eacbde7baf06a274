package version_test

import (
	"fmt"
	"runtime/debug"

	"github.com/winnow-go/winnow/internal/version"
)

func ExampleFromBuildInfo() {
	bi := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/winnow-go/winnow", Version: "v0.0.0-20250102030405-0123456789ab+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2025-01-02T03:04:05Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	fmt.Println(version.FromBuildInfo(bi, "2025-01-03T10:00:00+01:00"))
	fmt.Println(version.FromBuildInfo(&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, ""))
	// Output:
	// winnow v0.0.0-20250102030405-0123456789ab+dirty (rev 0123456789ab, modified, committed 2025-01-02T03:04:05Z, built 2025-01-03T09:00:00Z, go1.26.8)
	// winnow devel (go1.26.8)
}
