package corpus_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/corpus"
)

// TestQueue: a queued case is written once, atomically, under queue/, and
// read back as written; a directory without a queue has none; a file
// that is not a queued case is an error naming it, the others read.
func TestQueue(t *testing.T) {
	dir := t.TempDir()
	if q, err := corpus.LoadQueue(context.Background(), dir, 0); err != nil || q != nil {
		t.Fatalf("no queue: %v, %v", q, err)
	}
	schema, args := []byte(`{"type":"object"}`), []byte(`{"a":"x &amp; 1e400"}`)
	name, err := corpus.SaveQueued(dir, schema, args)
	if err != nil {
		t.Fatal(err)
	}
	again, err := corpus.SaveQueued(dir, schema, args)
	if err != nil || again != name || !strings.HasPrefix(name, corpus.QueueDir+"/") {
		t.Fatalf("saved as %q, then %q (%v)", name, again, err)
	}
	if _, err := corpus.SaveQueued(dir, []byte(`{`), args); err == nil {
		t.Error("a schema that is not JSON was queued")
	}
	bad := map[string]string{
		"bad-1.json": `{"schema":{}}`,
		"bad-2.json": `{"schema":{},"arguments":{},"extra":1}`,
		"bad-3.json": `[1]`,
		"bad-4.json": `{"schema":{},"arguments":{},"schema":{}}`,
	}
	for f, text := range bad {
		if err := os.WriteFile(filepath.Join(dir, corpus.QueueDir, f), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := corpus.LoadQueue(context.Background(), dir, 0)
	if len(got) != 1 || string(got[0].Schema) != string(schema) || string(got[0].Args) != string(args) || got[0].File != name {
		t.Errorf("read %+v", got)
	}
	var fe *corpus.FileError
	if !errors.As(err, &fe) || strings.Count(err.Error(), "not a queued case") != len(bad) {
		t.Errorf("errors %v: want one naming each bad file", err)
	}
	if q, _ := corpus.LoadQueue(context.Background(), dir, 1); len(q) != 1 {
		t.Errorf("at most 1: %d", len(q))
	}
}

// TestQueueStaysInside: a queue/ that is a link out of the directory is
// neither written through nor read.
func TestQueueStaysInside(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "x.json"), []byte(`{"schema":{},"arguments":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, corpus.QueueDir)); err != nil {
		t.Skip(err)
	}
	if _, err := corpus.SaveQueued(dir, []byte(`{}`), []byte(`{}`)); err == nil {
		t.Error("a case was written through a link out of the directory")
	}
	if q, err := corpus.LoadQueue(context.Background(), dir, 0); len(q) != 0 || err == nil {
		t.Errorf("read %d cases through a link out of the directory (%v)", len(q), err)
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 {
		t.Errorf("the directory outside holds %d files", len(entries))
	}
}
