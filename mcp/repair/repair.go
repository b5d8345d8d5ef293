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
	// repaired, before the call goes on, with the tool's name, the first
	// MaxRepairs repairs in document order, and how many there were in
	// all (total, len(repairs) or more). It must not keep repairs past its
	// return.
	OnRepair func(ctx context.Context, tool string, repairs []normalize.Repair, total int)
	// MaxRepairs is how many repairs of a call OnRepair is given at most:
	// 0 is DefaultMaxRepairs; below 0, all of them. The repairs past it
	// are counted, not listed, and cost nothing: a call of 10 MB can hold
	// a million repairs, whose list would take about 60 MB.
	MaxRepairs int
	// Logger gets one warning for each tool schema that does not compile
	// (its calls pass through untouched). Nil is slog.Default().
	Logger *slog.Logger
}

// DefaultMaxRepairs is how many repairs of a call [Options.OnRepair] is
// given unless [Options.MaxRepairs] says otherwise.
const DefaultMaxRepairs = core.DefaultMaxRepairs

// LogRepairs returns an [Options.OnRepair] that logs each repaired call
// on l at level, with attributes tool, repairs (how many, in all), and
// pointers (the JSON Pointers of the repaired values) and kinds of the
// first five repairs, each pointer cut to 128 bytes: a line, however many
// repairs.
func LogRepairs(l *slog.Logger, level slog.Level) func(ctx context.Context, tool string, repairs []normalize.Repair, total int) {
	return core.LogRepairs(l, level)
}
