// Package repair is what the RT-TOOL-8 middlewares of this module (gosdk
// for the official Go SDK, mcpgo for mark3labs/mcp-go) share in their API:
// one type of options, and a callback that logs what was repaired. Each
// middleware package names them too (gosdk.Options is this Options), so a
// server imports only its library's package.
package repair

import (
	"context"
	"log/slog"

	"github.com/toolnorm/toolnorm/mcp/internal/core"
	"github.com/toolnorm/toolnorm/normalize"
)

// Options configure a middleware. The zero value (or nil) is the rule's
// literal reading, no callback, warnings on slog.Default().
type Options struct {
	// Normalize are options of the reference normalizer (a profile, a
	// pass bound).
	Normalize []normalize.Option
	// OnRepair, when set, is called for each call whose arguments were
	// repaired, with the tool's name and the repairs, before the call goes
	// on. It must not keep repairs past its return.
	OnRepair func(ctx context.Context, tool string, repairs []normalize.Repair)
	// Logger gets one warning for each tool schema that does not compile
	// (its calls pass through untouched). Nil is slog.Default().
	Logger *slog.Logger
}

// LogRepairs returns an [Options.OnRepair] that logs each repaired call
// on l at level, with attributes tool, repairs (how many), and pointers
// (the JSON Pointers of the repaired values) and kinds of the first five
// repairs, each pointer cut to 128 bytes: a line, however many repairs.
func LogRepairs(l *slog.Logger, level slog.Level) func(ctx context.Context, tool string, repairs []normalize.Repair) {
	return core.LogRepairs(l, level)
}
