package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/toolnorm/toolnorm/check"
)

// TestStatus: without a terminal, a line now and then, the first once
// the interval has passed (not "0 of 5037 vectors" at once).
func TestStatus(t *testing.T) {
	var b strings.Builder
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	s := &status{w: &b, now: func() time.Time { return now }, interval: 10 * time.Second}
	s.last = s.now()
	s.show("first")
	now = now.Add(9 * time.Second)
	s.show("too soon")
	now = now.Add(2 * time.Second)
	s.show("after 11s")
	s.show("again at once")
	if got, want := b.String(), "after 11s\n"; got != want {
		t.Errorf("status wrote %q, want %q", got, want)
	}
}

func TestProgressLine(t *testing.T) {
	tests := []struct {
		p        check.Progress
		budgeted bool
		want     string
	}{
		{check.Progress{Phase: "corpus", Done: 1024, Total: 5037, Elapsed: 3 * time.Second, Left: 27 * time.Second}, true,
			"3s, 27s left: corpus, 1024 of 5037 vectors replayed, 0 findings"},
		{check.Progress{Phase: "properties", Cases: 4096, Findings: 2, Elapsed: 12 * time.Second}, false,
			"12s: corpus replayed; properties and fuzzing, 4096 cases run, 2 findings"},
	}
	for _, tt := range tests {
		if got := progressLine(tt.p, tt.budgeted); got != tt.want {
			t.Errorf("progressLine = %q, want %q", got, tt.want)
		}
	}
}
