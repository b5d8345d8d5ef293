package check

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"
)

// TestFuzzHardDeadline: fuzzing ends at its deadline and Grace, as a check
// does at its budget's: a request in flight then is stopped, whatever the
// per-request time limit, and the run ends with what it counted. Against
// an implementation that never answers, Run waited for ever (an adapter's
// --timeout, 10 s, for each request, until the adapter was given up on:
// toolnorm fuzz --duration 3s ran 10 s against one that stops reading its
// input, more than 90 s against one that hangs).
func TestFuzzHardDeadline(t *testing.T) {
	vs := vectors(t)
	for _, tt := range []struct {
		name     string
		answer   time.Duration // how long each answer takes
		duration time.Duration
		end      time.Duration
		cases    int // at least, counted
	}{
		{"hangs", time.Hour, 3 * time.Second, 3300 * time.Millisecond, 0},             // a tenth past
		{"hangs", time.Hour, 30 * time.Second, 30500 * time.Millisecond, 0},           // half a second past
		{"slow", 10 * time.Second, 3 * time.Second, 3300 * time.Millisecond, 0},       // each answer past the end
		{"slow", 40 * time.Millisecond, 3 * time.Second, 3300 * time.Millisecond, 65}, // a batch of 64 takes 2.56 s: the second is cut
	} {
		t.Run(fmt.Sprintf("%s/%v/%v", tt.name, tt.answer, tt.duration), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := &Fuzzer{Impl: slowed(tt.answer), Seeds: vs}
				start := time.Now()
				if err := f.Run(context.Background(), 1, start.Add(tt.duration), nil); err != nil {
					t.Fatal(err)
				}
				t.Logf("took %v, %d cases", time.Since(start), f.Cases)
				if took := time.Since(start); took > tt.end {
					t.Errorf("took %v, want at most %v", took, tt.end)
				}
			})
		})
	}
}
