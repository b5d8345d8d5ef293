// Package initcmd implements toolnorm init: from an implementer's function to
// a CI check in one command. It writes, into the implementer's repository,
// the adapter kit of the language (package kits), a small adapter that
// imports the function (for Go, a main package that serves it with
// harness.Serve), a test in the language's own runner that replays the
// corpus through the function, a copy of the corpus, and a GitHub Actions
// workflow; and prints the toolnorm check command to run now.
package initcmd

import (
	"bytes"
	"cmp"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/kits"
)

// ActionRepo is this repository, whose GitHub Action the generated
// workflow uses.
const ActionRepo = "toolnorm/toolnorm"

// Action is the action pinned to the newest commit of main this source
// knows, whose toolnorm reads every declaration the kits send: the pin of
// a workflow written by a toolnorm that does not know its own ref
// (Options.ActionRef; a go install at a pseudo-version), and README's.
// It is moved forward at each release (TestFallbackKnowsTheKits).
const Action = ActionRepo + "@" + FallbackRef

// FallbackRef is Action's commit.
const FallbackRef = "1a9ee7af048b39b74a9cd9ade68d043a5c179778"

// JUnitAction is the action that shows the check's JUnit report in the
// test tab of a pull request (as a check run: it needs checks: write),
// pinned to a commit of the release the comment names.
const JUnitAction = "mikepenz/action-junit-report@a9170d5795813c01ab4901ffb045b52bab4ab09d # v6.5.0"

// Workflow is where the workflow is written, from the repository's root.
const Workflow = ".github/workflows/toolnorm.yml"

// CheckSeed and CheckCases are the --seed and --checks of the workflow's
// check, and of the command init prints to write its baseline: the same
// cases every time, so that a root cause known is found again (a check
// with a budget runs what the machine's speed allows, and explains what
// it found as far as the budget goes).
const (
	CheckSeed  = 1
	CheckCases = 256
)

// FindingsDir is where the nightly fuzz keeps its findings, in the
// adapter's directory: the pull-request check replays those committed
// there beside the corpus (check --add-corpus). init writes a README into
// it, so that it exists before the first finding.
const FindingsDir = "findings"

// BaselineFile is the baseline of known root causes the workflow's check
// runs against, in the adapter's directory. init writes it empty when it is
// missing, and never overwrites it, --force or not: it is the user's, kept
// by toolnorm check --write-baseline.
const BaselineFile = "baseline.json"

// skippedGroups are the corpus groups not copied: html5lib's thousands of
// one-string cases, which toolnorm check replays through the adapter.
var skippedGroups = map[string]bool{"html5lib": true}

//go:embed templates/*.tmpl
var templates embed.FS

// Options is what toolnorm init is asked to do.
type Options struct {
	Lang  string // python, javascript, php or go
	Func  string // MODULE:FUNCTION, PATH#EXPORT, PATH:FUNCTION or PACKAGE:FUNCTION
	Dir   string // where the kit and the adapter go, relative to Root; "": the language's dir
	Force bool   // overwrite files that exist
	// Refresh rewrites what toolnorm owns in Dir (the kit, the replay
	// runner, the corpus test, the vectors) and keeps the adapter and the
	// workflow, which the user edits; Func is not needed.
	Refresh bool
	// NoWorkflow leaves out the CI workflow (Workflow): a repository
	// whose CI is not GitHub Actions, or not to be changed yet.
	NoWorkflow bool
	Root       string // the repository's root
	// ActionRef is the ref of toolnorm/toolnorm the workflow pins the
	// action to: that of the toolnorm running init, so that the action
	// builds the same toolnorm (its release tag, or its full commit);
	// "": FallbackRef.
	ActionRef string
}

// A language is what init writes for one --lang.
type language struct {
	adapter, test string // templates of the adapter and the test, by file name written
	command       string // the adapter's command line, %s the directory
	fuzzCommand   string // the nightly fuzz's, when it differs (the adapter built to offer coverage)
	runner        string // the test runner, for the workflow's step name
	testCommand   string // the command that runs the test, %s the directory
	runnerFile    string // the corpus runner, in corpus.Runners(); "": none
	dir           string // the default --dir
	vectors       string // where the vectors go, in dir
}

// Go's package is a directory the go command does not skip (it skips
// those whose name starts with a dot: go mod tidy would drop toolnorm
// from go.mod, go test ./... would not run the corpus), with its vectors
// in testdata/, as a Go test keeps its files.
const goDir = "cmd/toolnorm-adapter"

// Languages are the languages init writes for, as --lang names them and
// in the order its help lists them.
var Languages = []string{"python", "javascript", "php", "go"}

var languages = map[string]language{
	"python": {
		adapter: "adapter.py", test: "test_toolnorm_corpus.py",
		command: "python3 %s/adapter.py", runner: "Python's unittest",
		testCommand: "python3 -m unittest discover -s %s -p 'test_*.py'", runnerFile: "runners/replay.py",
		dir: ".toolnorm", vectors: "vectors",
	},
	"javascript": {
		adapter: "adapter.mjs", test: "corpus.test.mjs",
		command: "node %s/adapter.mjs", runner: "node --test",
		testCommand: "node --test %s/", runnerFile: "runners/replay.mjs",
		dir: ".toolnorm", vectors: "vectors",
	},
	"php": {
		adapter: "adapter.php", test: "test_corpus.php",
		command: "php %s/adapter.php", runner: "a PHP test script",
		testCommand: "php %s/test_corpus.php", runnerFile: "runners/replay.php",
		dir: ".toolnorm", vectors: "vectors",
	},
	"go": {
		adapter: "main.go", test: "corpus_test.go",
		command: "go run ./%s", runner: "go test",
		fuzzCommand: "go run -cover -covermode=atomic ./%s",
		testCommand: "go test ./%s", dir: goDir, vectors: "testdata/vectors",
	},
}

// toolnormModule is the module the Go adapter imports (harness, corpus).
const toolnormModule = "github.com/toolnorm/toolnorm"

var safeDir = regexp.MustCompile(`^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$`)

// target is a function, as the templates name it.
type target struct {
	Func, Module, Name, File string
}

// Run does toolnorm init with o, and prints what it wrote to w, then the
// check command as the last line.
func Run(o Options, w io.Writer) error {
	lang, ok := languages[o.Lang]
	if !ok {
		return fmt.Errorf("init: --lang: want python, javascript, php or go, not %q", o.Lang)
	}
	if o.Dir == "" {
		o.Dir = lang.dir
	}
	dir := filepath.ToSlash(filepath.Clean(o.Dir))
	if !safeDir.MatchString(dir) || strings.HasPrefix(dir, "../") || dir == ".." {
		return fmt.Errorf("init: --dir %q: want a relative path inside the repository, of letters, digits, '.', '_', '-' and '/'", o.Dir)
	}
	if dir == "." && o.Lang == "go" {
		return fmt.Errorf("init: --dir .: the Go adapter is a main package of its own: want a directory below the module's root")
	}
	adapter := path.Join(dir, lang.adapter)
	var t target
	if o.Refresh {
		if _, err := os.Stat(filepath.Join(o.Root, filepath.FromSlash(adapter))); err != nil {
			return fmt.Errorf("init: --refresh: no %s to keep: toolnorm init without --refresh writes it", adapter)
		}
	} else {
		var err error
		if t, err = find(o.Root, o.Lang, o.Func); err != nil {
			return fmt.Errorf("init: --func %s: %w", o.Func, err)
		}
	}

	files := map[string][]byte{}
	if kit, kitText, ok := kits.For(o.Lang); ok {
		files[path.Join(dir, kit.Name)] = kitText
	}
	if lang.runnerFile != "" {
		runner, err := fs.ReadFile(corpus.Runners(), lang.runnerFile)
		if err != nil {
			return fmt.Errorf("init: %s: %w", lang.runnerFile, err)
		}
		files[path.Join(dir, path.Base(lang.runnerFile))] = runner
	}
	up := strings.Repeat("../", strings.Count(dir, "/")+1)
	if dir == "." {
		up = ""
	}
	checkLine := "toolnorm check --impl '" + fmt.Sprintf(lang.command, dir) + "'"
	checkArgs := fmt.Sprintf("--seed %d --checks %d", CheckSeed, CheckCases)
	data := map[string]any{
		"Func":         o.Func,
		"Module":       t.Module,
		"Name":         t.Name,
		"NameJSON":     jsonString(t.Name),
		"NameJSONFull": jsonString(o.Func),
		"FuncJSON":     jsonString(o.Func),
		"NamePHP":      phpString(t.Name),
		"FuncPHP":      phpString(o.Func),
		"PyRoot":       jsonString(strings.TrimSuffix(up, "/")),
		"JSPath":       jsonString(up + t.File),
		"PHPPath":      phpString(up + t.File),
		"Check":        checkLine,
		"Impl":         fmt.Sprintf(lang.command, dir),
		"FuzzImpl":     fmt.Sprintf(cmp.Or(lang.fuzzCommand, lang.command), dir),
		"Test":         fmt.Sprintf(lang.testCommand, dir),
		"Runner":       lang.runner,
		"Dir":          dir,
		"Vectors":      path.Join(dir, lang.vectors),
		"Lang":         o.Lang,
		"GoImport":     jsonString(t.Module),
		"GoRoot":       jsonString(strings.TrimSuffix(up, "/")),
		"GoVectors":    jsonString(lang.vectors),
		"Baseline":     path.Join(dir, BaselineFile),
		"Seed":         CheckSeed,
		"Checks":       CheckCases,
		"CheckArgs":    checkArgs,
		"Findings":     path.Join(dir, FindingsDir),
		"Action":       ActionRepo + "@" + cmp.Or(o.ActionRef, FallbackRef),
		"JUnitAction":  JUnitAction,
	}
	written := map[string]string{path.Join(dir, lang.test): lang.test + ".tmpl"}
	if !o.Refresh {
		files[path.Join(dir, FindingsDir, "README.md")] = []byte(fmt.Sprintf(findingsReadme, path.Join(dir, FindingsDir)))
		written[adapter] = lang.adapter + ".tmpl"
		if !o.NoWorkflow {
			written[Workflow] = "workflow.yml.tmpl"
		}
	}
	for name, tmpl := range written {
		b, err := render(tmpl, data)
		if err != nil {
			return err
		}
		files[name] = b
	}
	vectors := path.Join(dir, lang.vectors)

	// Nothing is written if anything would be overwritten.
	if !o.Force && !o.Refresh {
		for _, name := range append(sortedKeys(files), vectors) {
			if _, err := os.Lstat(filepath.Join(o.Root, filepath.FromSlash(name))); err == nil {
				return fmt.Errorf("init: %s exists (--force overwrites it)", name)
			}
		}
	}
	for _, name := range sortedKeys(files) {
		if err := write(o.Root, name, files[name]); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s\n", name)
	}
	baseline := path.Join(dir, BaselineFile)
	if _, err := os.Lstat(filepath.Join(o.Root, filepath.FromSlash(baseline))); errors.Is(err, fs.ErrNotExist) {
		empty := &check.Baseline{Version: check.BaselineVersion, Implementation: o.Func, RootCauses: []check.Known{}}
		if err := write(o.Root, baseline, empty.Marshal()); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s (empty: no root cause known yet)\n", baseline)
	}
	n, err := writeVectors(o.Root, vectors, o.Lang != "go")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s/ (%d vectors; the html5lib group is replayed by toolnorm check)\n", vectors, n)
	if o.Refresh {
		fmt.Fprintf(w, "kept %s and %s\n", adapter, Workflow)
		return nil
	}
	fmt.Fprintf(w, "\nthe corpus in your own tests: %s\n", data["Test"])
	if o.Lang == "python" {
		fmt.Fprintf(w, "or with pytest (named: it passes by a directory whose name starts with a dot): python3 -m pytest %s\n", dir)
	}
	fmt.Fprintf(w, "what you implement (profile, max_passes, depth, repairs), a mode, what your function cannot take: %s\n", adapter)
	fmt.Fprintf(w, "new vectors, keeping the adapter: toolnorm init --refresh --lang %s%s\n", o.Lang, dirFlag(o.Lang, dir))
	if o.Lang == "go" && !requires(o.Root, toolnormModule) {
		fmt.Fprintf(w, "the adapter imports %s; add it to go.mod:\ngo get %s@latest\n", toolnormModule, toolnormModule)
	}
	what := "the workflow"
	if o.NoWorkflow {
		what = "a check in CI (--baseline)"
	}
	fmt.Fprintf(w, "to have %s fail only on new root causes, keep those it finds now in %s (commit it; write it again after a fix):\n%s %s --write-baseline %s\n", what, baseline, checkLine, checkArgs, baseline)
	fmt.Fprintf(w, "check it now:\n%s\n", checkLine)
	return nil
}

// dirFlag is the --dir flag that names dir, or "" for the language's
// default.
func dirFlag(lang, dir string) string {
	if dir == languages[lang].dir {
		return ""
	}
	return " --dir " + dir
}

// requires reports whether root's go.mod requires module.
func requires(root, module string) bool {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return false
	}
	return regexp.MustCompile(`(?m)^(?:require[ \t]+|[ \t]+)` + regexp.QuoteMeta(module) + `[ \t]+v`).Match(b)
}

func render(name string, data any) ([]byte, error) {
	// A key the data lacks is an error, not "<no value>" in a file
	// written into someone's repository.
	t, err := template.New(name).Option("missingkey=error").ParseFS(templates, "templates/"+name)
	if err != nil {
		return nil, fmt.Errorf("init: template %s: %w", name, err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return nil, fmt.Errorf("init: template %s: %w", name, err)
	}
	return b.Bytes(), nil
}

func write(root, name string, data []byte) error {
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("init: %w", err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return fmt.Errorf("init: %w", err)
	}
	return nil
}

// writeVectors copies the committed corpus, but for skippedGroups, into
// dir (replacing what a former init wrote there), and counts the vectors;
// with judged, JudgedFile too (a Go test asks check.Applies itself).
func writeVectors(root, dir string, judged bool) (int, error) {
	out := filepath.Join(root, filepath.FromSlash(dir))
	if err := os.RemoveAll(out); err != nil {
		return 0, fmt.Errorf("init: %w", err)
	}
	src := corpus.Embedded()
	n := 0
	err := fs.WalkDir(src, "vectors", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, "vectors"), "/")
		if d.IsDir() {
			if skippedGroups[rel] {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".json") {
			return nil
		}
		b, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		n++
		return write(root, path.Join(dir, rel), b)
	})
	if err != nil {
		return 0, fmt.Errorf("init: the corpus: %w", err)
	}
	if judged {
		all, err := corpus.Load(src)
		if err != nil {
			return 0, fmt.Errorf("init: the corpus: %w", err)
		}
		var vs []*corpus.Vector
		for _, v := range all {
			if g, _, _ := strings.Cut(strings.TrimPrefix(v.File, "vectors/"), "/"); !skippedGroups[g] {
				vs = append(vs, v)
			}
		}
		table, err := judgedTable(context.Background(), vs)
		if err != nil {
			return 0, err
		}
		if err := write(root, path.Join(dir, JudgedFile), table); err != nil {
			return 0, err
		}
	}
	return n, nil
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func phpString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// findingsReadme is the README of the findings directory, %[1]s its path.
const findingsReadme = `# Findings of toolnorm fuzz

The nightly job of .github/workflows/toolnorm.yml fuzzes the adapter and
writes each new failure here as a corpus vector (vectors/found/). Download
the job's toolnorm-findings artifact, unzip it into %[1]s and commit it:
every pull request then replays these vectors beside toolnorm's corpus
(toolnorm check --add-corpus %[1]s), each a regression test.
`
