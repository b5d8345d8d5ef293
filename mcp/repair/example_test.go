package repair_test

import (
	"context"
	"log/slog"
	"os"

	"github.com/toolnorm/toolnorm/mcp/repair"
	"github.com/toolnorm/toolnorm/normalize"
)

// LogRepairs logs what a call's repairs were, as a middleware reports
// them: by JSON Pointer and kind.
func ExampleLogRepairs() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{} // a stable output
			}
			return a
		},
	}))
	s, _ := normalize.Compile([]byte(`{"type":"object","properties":{"ids":{"type":"array"}}}`))
	_, repairs, _ := s.NormalizeReport([]byte(`{"ids":"[1,2]","title":"Ember &amp;amp; Oak"}`))
	opts := repair.Options{OnRepair: repair.LogRepairs(logger, slog.LevelInfo)}
	opts.OnRepair(context.Background(), "search", repairs, len(repairs))
	// Output:
	// level=INFO msg="toolnorm: repaired tool arguments" tool=search repairs=2 pointers="[/ids /title]" kinds="[json-decoded entities-decoded]"
}
