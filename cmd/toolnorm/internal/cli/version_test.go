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
