package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/internal/hostile"
)

// TestExplainBounded: --explain lists at most maxRepairsShown repairs and
// counts the rest, each pointer cut, whatever the arguments. It printed
// every repair's whole pointer: 16 KB of arguments (one key of 4 KB above
// 1,500 leaves) gave 6 MB on standard error; 1 MB of them, 10 GB.
func TestExplainBounded(t *testing.T) {
	c := hostile.LongKeyLeaves(16 << 10)
	dir := t.TempDir()
	schema, args := filepath.Join(dir, "schema.json"), filepath.Join(dir, "args.json")
	if err := os.WriteFile(schema, c.Schema, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(args, c.Args, 0o666); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"normalize", "--schema", schema, "--args", args, "--explain"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %.300s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	if len(lines) != maxRepairsShown+1 || stderr.Len() > (maxRepairsShown+1)*(16*(maxTokenShown+30)+80) {
		t.Fatalf("%d lines, %d bytes on standard error, want %d short lines", len(lines), stderr.Len(), maxRepairsShown+1)
	}
	if want := "and 1435 more repairs"; lines[len(lines)-1] != want {
		t.Errorf("last line %q, want %q", lines[len(lines)-1], want)
	}
	if !strings.HasPrefix(lines[0], "/kkkk") || !strings.Contains(lines[0], "more bytes)/0: decoded character references in 1 pass") {
		t.Errorf("first line %q", lines[0])
	}
	if !strings.HasSuffix(stdout.String(), `,"&","&"]}`+"\n") {
		t.Errorf("stdout ends %q", stdout.String()[max(0, stdout.Len()-40):])
	}
}
