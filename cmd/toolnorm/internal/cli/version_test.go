package cli

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestBuild(t *testing.T) {
	rev := "0123456789abcdef0123456789abcdef01234567"
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: "2026-12-01T09:00:00Z"}}
	tests := []struct {
		name  string
		info  *debug.BuildInfo
		short string
		long  []string
	}{
		{"no build info", nil, "devel", []string{"toolnorm devel\n", "built by: go"}},
		{"go install @version", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/toolnorm/toolnorm", Version: "v0.4.0"}},
			"v0.4.0", []string{"toolnorm v0.4.0\n", "module:   github.com/toolnorm/toolnorm\n", "built by: go1.26.8\n"}},
		{"a clone", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/toolnorm/toolnorm", Version: "(devel)"}, Settings: vcs},
			"devel-0123456789ab", []string{"revision: " + rev + "\n", "time:     2026-12-01T09:00:00Z\n"}},
		{"a clone with changes", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: append(vcs, debug.BuildSetting{Key: "vcs.modified", Value: "true"})},
			"devel-0123456789ab+dirty", []string{"(with uncommitted changes)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := readBuild(tt.info, tt.info != nil)
			if got := b.Short(); got != tt.short {
				t.Errorf("Short() = %q, want %q", got, tt.short)
			}
			long := b.Long()
			for _, want := range tt.long {
				if !strings.Contains(long, want) {
					t.Errorf("Long() = %q, want it to contain %q", long, want)
				}
			}
		})
	}
}

// TestRef: the ref toolnorm init pins the action to is this toolnorm's
// release tag or full commit, stamped at build or from the build info;
// none for a pseudo-version, whose 12 digits GitHub does not take.
func TestRef(t *testing.T) {
	rev := "0123456789abcdef0123456789abcdef01234567"
	clone := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}}}
	dirty := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}}
	for _, tc := range []struct {
		name  string
		info  *debug.BuildInfo
		stamp string
		ref   string
		exact bool
	}{
		{"no build info", nil, "", "", false},
		{"a release", &debug.BuildInfo{Main: debug.Module{Version: "v0.5.0"}}, "", "v0.5.0", true},
		{"a pseudo-version", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261206204731-0123456789ab"}}, "", "", false},
		{"a pseudo-version after a tag", &debug.BuildInfo{Main: debug.Module{Version: "v0.5.1-0.20261206204731-0123456789ab"}}, "", "", false},
		{"a clone", clone, "", rev, true},
		{"a clone with changes", dirty, "", rev, false},
		{"stamped with a tag", nil, "v0.6.0", "v0.6.0", true},
		{"stamped with a commit", dirty, "fedcba9876543210fedcba9876543210fedcba98", "fedcba9876543210fedcba9876543210fedcba98", true},
		{"stamped with something else", clone, "main", rev, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := readBuild(tc.info, tc.info != nil).stamped(tc.stamp)
			ref, exact := b.Ref()
			if ref != tc.ref || exact != tc.exact {
				t.Errorf("Ref() = %q, %v; want %q, %v", ref, exact, tc.ref, tc.exact)
			}
			if ref != "" && !strings.Contains(b.Long(), "action:   toolnorm/toolnorm@"+ref+" ") {
				t.Errorf("Long() = %q, want it to name the action's ref", b.Long())
			}
		})
	}
}
