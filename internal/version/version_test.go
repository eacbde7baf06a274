package version

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	tests := []struct {
		name  string
		bi    *debug.BuildInfo
		built string
		want  string
	}{
		{"no build info", nil, "", "winnow devel"},
		{"no build info, build time", nil, "2025-01-03T09:00:00Z", "winnow devel (built 2025-01-03T09:00:00Z)"},
		{"bad build time", nil, "yesterday", "winnow devel"},
		{"tagged", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.modified", Value: "false"},
		}}, "", "winnow v1.2.0 (rev 0123456789ab, go1.26.8)"},
		{"short revision", &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}}, "", "winnow devel (rev abc)"},
		{"commit time in UTC", &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.time", Value: "2025-01-02T04:04:05+01:00"}}}, "",
			"winnow devel (committed 2025-01-02T03:04:05Z)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FromBuildInfo(tt.bi, tt.built).String(); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestRunningBinary checks the line of the test binary itself: one line,
// "winnow " and a version.
func TestRunningBinary(t *testing.T) {
	s := String()
	if !strings.HasPrefix(s, "winnow ") || strings.Contains(s, "\n") || len(strings.Fields(s)) < 2 {
		t.Errorf("String() = %q", s)
	}
}
