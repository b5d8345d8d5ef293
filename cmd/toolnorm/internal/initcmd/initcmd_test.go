package initcmd

import (
	"cmp"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/harness"
)

// TestLanguages: --lang offers and accepts the languages init writes for.
func TestLanguages(t *testing.T) {
	got, want := slices.Sorted(slices.Values(Languages)), slices.Sorted(maps.Keys(languages))
	if !slices.Equal(got, want) {
		t.Errorf("Languages = %q, want %q", got, want)
	}
}

// TestActionPin checks that the workflow init writes pins the action as
// the README tells users to, and that no page shows another ref of it
// (@main, an older commit).
func TestActionPin(t *testing.T) {
	readme, err := os.ReadFile("../../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "uses: "+Action+"\n") {
		t.Errorf("README.md does not pin the action as init does: %s", Action)
	}
	pages, err := filepath.Glob("../../../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	uses := regexp.MustCompile(`uses: (toolnorm/toolnorm@\S+)`)
	for _, page := range append(pages, "../../../../README.md") {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range uses.FindAllStringSubmatch(string(b), -1) {
			if m[1] != Action {
				t.Errorf("%s shows %s, init pins %s", filepath.Base(page), m[1], Action)
			}
		}
	}
}

// TestFallbackKnowsTheKits: the commit a workflow falls back to pinning
// reads every declaration the kits send, so that the action it builds
// starts their adapters: pinned 475 commits back, it knew no
// declares.repairs, and every check exited 2 (json: unknown field
// "repairs"). It reads the commit from this clone's history, and is
// skipped where there is none.
func TestFallbackKnowsTheKits(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	if err := exec.Command("git", "cat-file", "-e", FallbackRef+"^{commit}").Run(); err != nil {
		t.Skipf("commit %s is not in this clone's history", FallbackRef)
	}
	for _, field := range reflect.VisibleFields(reflect.TypeFor[harness.Declares]()) {
		name, _, _ := strings.Cut(field.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		if err := exec.Command("git", "grep", "-q", "-F", `json:"`+name, FallbackRef, "--", ":(top)harness/").Run(); err != nil {
			t.Errorf("the toolnorm at %s does not read declares.%s, which this one does: move FallbackRef forward", FallbackRef, name)
		}
	}
	// And its action takes every input the workflow gives it.
	action, err := exec.Command("git", "show", FallbackRef+":action.yml").Output()
	if err != nil {
		t.Fatal(err)
	}
	inputs := actionInputs(string(action))
	b, err := render("workflow.yml.tmpl", workflowData(map[string]any{"Action": Action}))
	if err != nil {
		t.Fatal(err)
	}
	for _, steps := range workflowJobs(t, string(b)) {
		for _, st := range steps {
			for k := range st.with {
				if st.uses == Action && !inputs[k] {
					t.Errorf("the action at %s has no input %s, which the workflow gives it: move FallbackRef forward", FallbackRef, k)
				}
			}
		}
	}
}

// workflowData is the data of the workflow's template in a test, with
// the keys of over changed.
func workflowData(over map[string]any) map[string]any {
	d := map[string]any{"Action": Action, "Impl": "python3 .toolnorm/adapter.py", "FuzzImpl": "python3 -X fuzz .toolnorm/adapter.py", "Test": "python3 -m unittest", "Runner": "unittest",
		"Dir": ".toolnorm", "Lang": "python", "Seed": CheckSeed, "Checks": CheckCases, "CheckArgs": "--seed 1 --checks 256",
		"Findings": ".toolnorm/findings", "Baseline": ".toolnorm/baseline.json", "JUnitAction": JUnitAction, "Check": "toolnorm check", "Func": "f"}
	maps.Copy(d, over)
	return d
}

// TestActionRef: the workflow pins the ref it is given, else the
// fallback.
func TestActionRef(t *testing.T) {
	for _, tc := range []struct{ ref, want string }{
		{"", "uses: " + Action + "\n"},
		{"v0.5.0", "uses: toolnorm/toolnorm@v0.5.0\n"},
		{"0123456789abcdef0123456789abcdef01234567", "uses: toolnorm/toolnorm@0123456789abcdef0123456789abcdef01234567\n"},
	} {
		b, err := render("workflow.yml.tmpl", workflowData(map[string]any{"Action": ActionRepo + "@" + cmp.Or(tc.ref, FallbackRef)}))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(string(b), tc.want) != 2 {
			t.Errorf("ref %q: the workflow does not pin the check and the fuzz with %q:\n%s", tc.ref, tc.want, b)
		}
	}
}

// TestJUnitActionPin: the JUnit reporter is pinned by a full commit,
// with the release it is as a comment.
func TestJUnitActionPin(t *testing.T) {
	if !regexp.MustCompile(`^[\w-]+/[\w-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$`).MatchString(JUnitAction) {
		t.Errorf("JUnitAction = %q, want owner/repo@<40 hex> # vX.Y.Z", JUnitAction)
	}
}

// TestFind checks how each language's F is read and refused.
func TestFind(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"pkg/__init__.py": "",
		"pkg/norm.py":     "async def normalize(schema, arguments):\n    pass\nfrom x import other\n",
		"src/a.mjs":       "export function normalize() {}\nexport default normalize;\nconst b = 1; export { b };\n",
		"src/c.cjs":       "module.exports = { normalize };\n",
		"src/n.php":       "<?php\nclass N { public static function Fix($s, $a) {} }\nfunction norm($s, $a) {}\n",
		"./go.mod":        "module example.com/m\n\ngo 1.26\n",
		"internal/n/n.go": "package n\n\nfunc Normalize(schema, args []byte) ([]byte, error) { return args, nil }\n",
		"cmd/x/main.go":   "package main\n\nfunc Run() {}\n",
	}
	for name, text := range files {
		if err := os.MkdirAll(root+"/"+name[:strings.LastIndex(name, "/")], 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(root+"/"+name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ lang, f, err string }{
		{"python", "pkg.norm:normalize", ""},
		{"python", "pkg.norm:other", ""},
		{"python", "pkg:nothing", "pkg/__init__.py defines no nothing"},
		{"python", "pkg.norm", "want MODULE:FUNCTION"},
		{"python", "pkg/norm.py:normalize", "want MODULE:FUNCTION"},
		{"javascript", "src/a.mjs#normalize", ""},
		{"javascript", "src/a.mjs#default", ""},
		{"javascript", "src/a.mjs#b", ""},
		{"javascript", "src/c.cjs#normalize", ""},
		{"javascript", "src/a.mjs#c", "src/a.mjs exports no c"},
		{"javascript", "../a.mjs#normalize", "not inside the repository"},
		{"javascript", "src#normalize", "is a directory"},
		{"php", "src/n.php:norm", ""},
		{"php", "src/n.php:N::fix", ""},
		{"php", "src/n.php:gone", "src/n.php defines no function gone"},
		{"php", "norm", "want PATH:FUNCTION"},
		{"go", "./internal/n:Normalize", ""},
		{"go", "example.com/m/internal/n:Normalize", ""},
		{"go", "./internal/n:Other", "package internal/n defines no func Other"},
		{"go", "./internal/n:normalize", "not exported"},
		{"go", "./cmd/x:Run", "is package main"},
		{"go", "../n:Normalize", "not inside the repository"},
		{"go", "example.org/n:Normalize", "not a package of the module example.com/m"},
		{"go", "Normalize", "want PACKAGE:FUNCTION"},
	} {
		_, err := find(root, c.lang, c.f)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("find(%s, %s): %v", c.lang, c.f, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("find(%s, %s) = %v, want an error with %q", c.lang, c.f, err, c.err)
		}
	}
}

// workflowStep is one step of a job of the workflow init writes, as far
// as the tests read it.
type workflowStep struct {
	uses, run string
	with      map[string]string
}

// workflowJobs reads the jobs of the workflow init writes, each a list of
// steps: a reader of this one file's shape (two spaces a level), not of
// YAML at large.
func workflowJobs(t *testing.T, text string) map[string][]workflowStep {
	t.Helper()
	jobs := map[string][]workflowStep{}
	job, inRun, inWith := "", false, false
	var st *workflowStep
	for _, l := range strings.Split(text, "\n") {
		indent := len(l) - len(strings.TrimLeft(l, " "))
		trimmed := strings.TrimSpace(l)
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
			continue
		case indent == 2 && strings.HasSuffix(trimmed, ":"):
			job, st = strings.TrimSuffix(trimmed, ":"), nil
			continue
		case indent == 6 && strings.HasPrefix(trimmed, "- "):
			jobs[job] = append(jobs[job], workflowStep{with: map[string]string{}})
			st = &jobs[job][len(jobs[job])-1]
			inRun, inWith = false, false
			trimmed = strings.TrimPrefix(trimmed, "- ")
			indent = 8
		}
		if st == nil {
			continue
		}
		if inRun && indent > 8 {
			st.run += trimmed + "\n"
			continue
		}
		if inWith && indent == 10 {
			k, v, _ := strings.Cut(trimmed, ":")
			st.with[k] = strings.Trim(strings.TrimSpace(v), `"`)
			continue
		}
		inRun, inWith = false, false
		k, v, _ := strings.Cut(trimmed, ":")
		v = strings.TrimSpace(v)
		switch k {
		case "uses":
			st.uses = v
		case "run":
			inRun = v == "|"
			if !inRun {
				st.run = v + "\n"
			}
		case "with":
			inWith = true
		}
	}
	return jobs
}

// actionInputs are the inputs an action.yml declares.
func actionInputs(action string) map[string]bool {
	inputs := map[string]bool{}
	inInputs := false
	for _, l := range strings.Split(action, "\n") {
		switch {
		case l == "inputs:":
			inInputs = true
		case l != "" && !strings.HasPrefix(l, " "):
			inInputs = false
		case inInputs && regexp.MustCompile(`^  [a-z-]+:$`).MatchString(l):
			inputs[strings.TrimSuffix(strings.TrimSpace(l), ":")] = true
		}
	}
	return inputs
}

// TestWorkflowChecksOnce: each job of the workflow init writes runs
// toolnorm once (the check: the pull request's job; the fuzz: the
// night's), and the JUnit report in the test tab is the file that one
// check wrote, beside the Markdown of the job summary: the two came from
// two runs, with two seeds, and could disagree. Every input the workflow
// gives the action is one action.yml declares.
func TestWorkflowChecksOnce(t *testing.T) {
	action, err := os.ReadFile("../../../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	inputs := actionInputs(string(action))
	for _, lang := range Languages {
		b, err := render("workflow.yml.tmpl", workflowData(map[string]any{"Lang": lang}))
		if err != nil {
			t.Fatal(err)
		}
		jobs := workflowJobs(t, string(b))
		for job, want := range map[string]string{"check": "check", "fuzz": "fuzz"} {
			runs, junit := 0, ""
			var reported []string
			for _, st := range jobs[job] {
				switch {
				case st.uses == Action:
					runs++
					if cmp.Or(st.with["command"], "check") != want {
						t.Errorf("%s: job %s runs toolnorm %s", lang, job, st.with["command"])
					}
					junit = st.with["junit"]
					if wantImpl := map[string]string{"check": "python3 .toolnorm/adapter.py", "fuzz": "python3 -X fuzz .toolnorm/adapter.py"}[job]; st.with["impl"] != wantImpl {
						t.Errorf("%s: job %s runs %q, want %q", lang, job, st.with["impl"], wantImpl)
					}
					for k := range st.with {
						if !inputs[k] {
							t.Errorf("%s: job %s gives the action %s, an input action.yml does not declare", lang, job, k)
						}
					}
				case strings.Contains(st.run, "toolnorm "):
					runs++
					t.Errorf("%s: job %s runs toolnorm in a step of its own: %q", lang, job, st.run)
				case strings.HasPrefix(st.uses, "mikepenz/action-junit-report@"):
					reported = append(reported, st.with["report_paths"])
				}
			}
			if runs != 1 {
				t.Errorf("%s: job %s runs toolnorm %d times, want once", lang, job, runs)
			}
			if job == "check" && (junit == "" || !slices.Equal(reported, []string{junit})) {
				t.Errorf("%s: the check writes JUnit into %q, and the test tab shows %q", lang, junit, reported)
			}
		}
	}
}
