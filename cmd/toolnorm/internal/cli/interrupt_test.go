package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// TestCheckInterruptedBeforeItBegan: a signal while check reads the
// corpus and starts the adapter (its context done before it begins) stops
// it there: nothing ran, it says so in one line (with --format junit, a
// JUnit document says it too), and it exits 130. It was reported as a
// corpus that cannot be read ("(built in): hangup signal received"),
// exit status 2.
func TestCheckInterruptedBeforeItBegan(t *testing.T) {
	for _, format := range []string{"text", "junit"} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var stdout, stderr bytes.Buffer
		root := newRoot(strings.NewReader(""), &stdout, &stderr)
		root.SetArgs([]string{"check", "--checks", "1", "--format", format})
		_, err := root.ExecuteContextC(ctx)
		if !errors.Is(err, errInterrupted) {
			t.Errorf("%s: %v, want interrupted (exit status 130)", format, err)
		}
		if !strings.Contains(stderr.String(), "interrupted before the check began (reading the corpus, starting the adapter): nothing ran") {
			t.Errorf("%s: stderr %q", format, stderr.String())
		}
		if format == "junit" && !strings.Contains(stdout.String(), "interrupted before the check began: nothing ran") {
			t.Errorf("junit: %q", stdout.String())
		}
	}
}
