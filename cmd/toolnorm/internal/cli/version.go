package cli

import (
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolnorm/toolnorm/cmd/toolnorm/internal/initcmd"
)

// build describes the toolnorm binary from its build info: the module
// version it was built at (go install ...@v1.2.0), or, built from a clone,
// the VCS revision and whether the tree had changes.
type build struct {
	Module   string // the main module's path
	Version  string // "v1.2.0", or "devel"
	Revision string // the VCS revision, or ""
	Time     string // the revision's commit time, or ""
	Modified bool   // the tree had uncommitted changes
	Go       string // the Go version that built it
}

func readBuild(info *debug.BuildInfo, ok bool) build {
	b := build{Version: "devel", Go: runtime.Version()}
	if !ok || info == nil {
		return b
	}
	b.Module, b.Go = info.Main.Path, info.GoVersion
	if v := info.Main.Version; v != "" && v != "(devel)" {
		b.Version = v
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// Short is the version in one word: the module version, or devel with
// the first 12 digits of the revision ("devel-0123456789ab", "+dirty" when
// the tree had changes).
func (b build) Short() string {
	s := b.Version
	if s == "devel" && b.Revision != "" {
		s += "-" + b.Revision[:min(12, len(b.Revision))]
		if b.Modified {
			s += "+dirty"
		}
	}
	return s
}

// Long is what toolnorm version prints.
func (b build) Long() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "toolnorm %s\n", b.Short())
	if b.Module != "" {
		fmt.Fprintf(&sb, "module:   %s\n", b.Module)
	}
	if b.Revision != "" {
		mod := ""
		if b.Modified {
			mod = " (with uncommitted changes)"
		}
		fmt.Fprintf(&sb, "revision: %s%s\n", b.Revision, mod)
	}
	if b.Time != "" {
		fmt.Fprintf(&sb, "time:     %s\n", b.Time)
	}
	fmt.Fprintf(&sb, "built by: %s\n", b.Go)
	if ref, _ := b.Ref(); ref != "" {
		fmt.Fprintf(&sb, "action:   %s@%s (what toolnorm init pins)\n", initcmd.ActionRepo, ref)
	}
	return sb.String()
}

// stamp is the version stamped at build, read before the build info: a
// release tag ("v0.5.0") or the full commit toolnorm was built from, as
// the action builds it:
//
//	go build -ldflags "-X github.com/toolnorm/toolnorm/cmd/toolnorm/internal/cli.stamp=v0.5.0" ./cmd/toolnorm
var stamp string

func thisBuild() build { return readBuild(debug.ReadBuildInfo()).stamped(stamp) }

var (
	releaseTag = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)
	pseudo     = regexp.MustCompile(`[0-9]{14}-[0-9a-f]{12}$`)
	fullCommit = regexp.MustCompile(`^[0-9a-f]{40}$`)
)

// stamped is b with the version stamped at build, if any: a release tag
// is its version, a full commit its revision (clean).
func (b build) stamped(s string) build {
	switch {
	case releaseTag.MatchString(s) && !pseudo.MatchString(s):
		b.Version = s
	case fullCommit.MatchString(s):
		b.Version, b.Revision, b.Modified = "devel", s, false
	}
	return b
}

// Ref is the ref of the toolnorm/toolnorm repository this toolnorm was
// built from, as a workflow pins an action to it: its release tag, or the
// full commit (GitHub takes no abbreviated one); "" when it is not known
// (a pseudo-version holds only 12 digits of the commit). exact is false
// when the tree had changes the commit does not hold.
func (b build) Ref() (ref string, exact bool) {
	switch {
	case releaseTag.MatchString(b.Version) && !pseudo.MatchString(b.Version):
		return b.Version, true
	case fullCommit.MatchString(b.Revision):
		return b.Revision, !b.Modified
	}
	return "", false
}

// version is the one-word version that serve's start answer and the
// reports carry.
func version() string { return thisBuild().Short() }

var versionCmd = &command[noOptions]{
	Use:   "version",
	Short: "Print toolnorm's version, and the revision it was built from",
	Args:  cobra.NoArgs,
	Run:   runVersion,
}

func runVersion(cmd *cobra.Command, _ *noOptions, _ []string) error {
	fmt.Fprint(cmd.OutOrStdout(), thisBuild().Long())
	return nil
}
