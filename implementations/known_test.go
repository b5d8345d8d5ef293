package implementations_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/harness"
)

var update = flag.Bool("update", false, "rewrite each adapter's known-findings file")

// Adapters are the columns of the matrix that come from implementations/:
// the directory, the adapter's arguments, and the file of its known
// findings.
var Adapters = []struct{ Dir, Args, Known string }{
	{"typescript-cline-shared", "", "known-findings.json"},
	{"typescript-openclaw-ai", "coerce", "known-findings.coerce.json"},
	{"typescript-openclaw-ai", "validate", "known-findings.validate.json"},
	{"typescript-mastra-core", "coerce", "known-findings.coerce.json"},
	{"typescript-mastra-core", "validate", "known-findings.validate.json"},
	{"typescript-qwen-code", "", "known-findings.json"},
	{"typescript-n8n-mcp", "", "known-findings.json"},
	{"typescript-ai-sdk-tool-parser", "", "known-findings.json"},
	{"typescript-notion-mcp-server", "", "known-findings.json"},
}

// Known is what toolnorm finds in an implementation at a fixed seed and
// case count: the same every run, for an implementation that answers the
// same way.
type Known struct {
	Command        string            `json:"command"`
	Verdict        string            `json:"verdict"`
	NotImplemented string            `json:"not_implemented,omitempty"`
	Corpus         map[string]int    `json:"corpus"`
	FailedVectors  []string          `json:"failed_vectors"` // file names
	ErrorVectors   []string          `json:"error_vectors"`  // failures of the program
	Properties     map[string]string `json:"properties"`     // id: status
	FuzzBuckets    []string          `json:"fuzz_buckets"`
	// RootCauses are the bugs the findings group into, by id: one lost,
	// one split in two or two merged changes them.
	RootCauses []KnownCause `json:"root_causes"`
}

// KnownCause is one root cause: its id (the deviation that explains its
// findings, or their class where none does), title and what it accounts
// for (vectors by file name). The README of each package says which of
// its confirmed bugs each id files.
type KnownCause struct {
	ID         string   `json:"id"`
	Class      string   `json:"class"`
	Clause     string   `json:"clause"`
	Title      string   `json:"title"`
	Artefact   bool     `json:"artefact,omitempty"`
	Vectors    []string `json:"vectors"`
	Properties []string `json:"properties"`
	Buckets    []string `json:"buckets"`
}

func known(r *check.Report, command string) Known {
	c := r.Corpus
	k := Known{Command: command, Verdict: string(r.Verdict), NotImplemented: r.NotImplemented,
		Corpus:     map[string]int{"passed": c.Passed, "failed": c.Failed, "errors": c.Errors, "skipped": c.Skipped, "unimplemented": c.Unimplemented, "not_run": c.NotRun},
		Properties: map[string]string{}, FailedVectors: []string{}, ErrorVectors: []string{}, FuzzBuckets: []string{}}
	for _, f := range c.Failures {
		k.FailedVectors = append(k.FailedVectors, f.File)
	}
	for _, f := range c.ErrorList {
		k.ErrorVectors = append(k.ErrorVectors, f.File)
	}
	for _, p := range r.Properties {
		k.Properties[p.ID] = string(p.Status)
	}
	for _, f := range r.Fuzz.Findings {
		k.FuzzBuckets = append(k.FuzzBuckets, f.Bucket)
	}
	file := map[string]string{}
	for _, f := range slices.Concat(c.Failures, c.ErrorList) {
		file[f.ID] = f.File
	}
	k.RootCauses = []KnownCause{}
	for _, rc := range r.RootCauses {
		kc := KnownCause{ID: rc.ID, Class: rc.Class, Clause: rc.Clause, Title: rc.Title, Artefact: rc.Artefact, Vectors: []string{},
			Properties: append([]string{}, slices.Sorted(slices.Values(rc.Properties))...), Buckets: append([]string{}, slices.Sorted(slices.Values(rc.Buckets))...)}
		for _, id := range rc.Vectors {
			kc.Vectors = append(kc.Vectors, file[id])
		}
		slices.Sort(kc.Vectors)
		k.RootCauses = append(k.RootCauses, kc)
	}
	slices.Sort(k.FailedVectors)
	slices.Sort(k.ErrorVectors)
	slices.Sort(k.FuzzBuckets)
	return k
}

// TestKnownFindings checks each adapter that is installed (npm ci in its
// directory; .ci/run installs them when npm is reachable and then sets
// TOOLNORM_ADAPTERS, which makes a missing one a failure) and compares what
// toolnorm finds with its known findings: each of them confirmed on the
// package itself (confirm.test.mjs) and explained in its README.md.
// go test ./implementations -update rewrites them: read the diff, and
// confirm every new finding before committing it.
func TestKnownFindings(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	vectors, err := corpus.Load(corpus.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range Adapters {
		name := a.Dir + " " + a.Args
		t.Run(strings.TrimSpace(name), func(t *testing.T) {
			// Each check runs --checks 256 at seed 1 against its own
			// adapter: what it finds does not depend on what runs beside it.
			t.Parallel()
			if _, err := os.Stat(filepath.Join(a.Dir, "node_modules")); err != nil {
				if os.Getenv("TOOLNORM_ADAPTERS") != "" {
					t.Fatalf("%s is not installed (npm ci in it)", a.Dir)
				}
				t.Skipf("%s is not installed (npm ci in it)", a.Dir)
			}
			command := strings.TrimSpace("node implementations/" + a.Dir + "/adapter.mjs " + a.Args)
			// A minute a request, not the harness's ten seconds: the
			// adapters run all at once beside the rest of go test ./...,
			// and on a loaded machine one request of Ajv's validate
			// took longer (a timeout is the machine's, not a finding).
			adapter, err := harness.Start(harness.Config{Command: strings.TrimSpace("node " + a.Dir + "/adapter.mjs " + a.Args), Timeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			defer adapter.Close()
			r := check.Run(context.Background(), check.Config{Impl: adapter, Command: command, Vectors: vectors, Checks: 256, Seed: 1})
			got := known(r, "toolnorm check --impl '"+command+"' --seed 1 --checks 256")
			file := filepath.Join(a.Dir, a.Known)
			if *update {
				data, _ := json.MarshalIndent(got, "", "  ")
				if err := os.WriteFile(file, append(data, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (go test ./implementations -update writes it)", err)
			}
			var want Known
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			compare(t, got, want)
		})
	}
}

// compare says each way got differs from want: findings lost, findings
// added.
func compare(t *testing.T, got, want Known) {
	t.Helper()
	if got.Verdict != want.Verdict || got.NotImplemented != want.NotImplemented {
		t.Errorf("verdict %s (%s), known %s (%s)", got.Verdict, got.NotImplemented, want.Verdict, want.NotImplemented)
	}
	for k, n := range want.Corpus {
		if got.Corpus[k] != n {
			t.Errorf("corpus %s: %d, known %d", k, got.Corpus[k], n)
		}
	}
	diff := func(what string, got, want []string) {
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("%s lost: %s", what, w)
			}
		}
		for _, g := range got {
			if !slices.Contains(want, g) {
				t.Errorf("%s added (confirm it, then -update): %s", what, g)
			}
		}
	}
	diff("failed vector", got.FailedVectors, want.FailedVectors)
	diff("vector the implementation failed on", got.ErrorVectors, want.ErrorVectors)
	diff("fuzzing bucket", got.FuzzBuckets, want.FuzzBuckets)
	causes := func(k Known) map[string]KnownCause {
		m := map[string]KnownCause{}
		for _, c := range k.RootCauses {
			m[c.ID] = c
		}
		return m
	}
	gc, wc := causes(got), causes(want)
	for id, w := range wc {
		g, ok := gc[id]
		switch {
		case !ok:
			t.Errorf("root cause lost (or merged into another): %s: %s", id, w.Title)
		case !slices.Equal(g.Vectors, w.Vectors) || !slices.Equal(g.Properties, w.Properties) || !slices.Equal(g.Buckets, w.Buckets):
			t.Errorf("root cause %s accounts for other findings (split or merged?): vectors %v, properties %v, buckets %v; known %v, %v, %v",
				id, g.Vectors, g.Properties, g.Buckets, w.Vectors, w.Properties, w.Buckets)
		case g.Title != w.Title:
			// A maintainer files a root cause upstream by its title, and
			// finds it again by it: it names what it lists in one order.
			t.Errorf("root cause %s is titled %q, known %q", id, g.Title, w.Title)
		}
	}
	for id, g := range gc {
		if _, ok := wc[id]; !ok {
			t.Errorf("root cause added (split from another? confirm it, then -update): %s: %s", id, g.Title)
		}
	}
	for id, s := range want.Properties {
		if got.Properties[id] != s {
			t.Errorf("property %s: %s, known %s", id, got.Properties[id], s)
		}
	}
}
