package cmd

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestBuildVersion: --version names the build: the VCS revision from the
// build info, else one set at link time, else it says that the revision
// is unknown and how to find it, never a bare "(devel)" (issue 43, defect
// 11).
func TestBuildVersion(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	stamped := func(modified string) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}}
	}
	bare := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}
	for _, c := range []struct {
		info   *debug.BuildInfo
		ok     bool
		linked string
		want   string
	}{
		{stamped("false"), true, "", "(devel) 0123456789ab"},
		{stamped("true"), true, "", "(devel) 0123456789ab+modified"},
		{stamped("false"), true, "fedcba987654", "(devel) 0123456789ab"},
		{bare, true, "fedcba987654", "(devel) fedcba987654"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, true, "", "v1.2.0"},
		{nil, false, "abc", "(devel) abc"},
	} {
		if got := buildVersion(c.info, c.ok, c.linked); got != c.want {
			t.Errorf("buildVersion(%+v, %q) = %q, want %q", c.info, c.linked, got, c.want)
		}
	}
	for _, info := range []*debug.BuildInfo{bare, nil} {
		got := buildVersion(info, info != nil, "")
		if got != "(devel) revision unknown" {
			t.Errorf("no revision: %q; want it to say the revision is unknown", got)
		}
	}
	// The test binary has no VCS stamp: --version says how to get the revision.
	if v := version(); strings.Contains(v, "revision unknown") && !strings.Contains(v, "git rev-parse") {
		t.Errorf("version() = %q: no advice for the unknown revision", v)
	}
}
