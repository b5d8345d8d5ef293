package toolnorm_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// actionScript is the run: script of action.yml's step with the given id,
// dedented, as the runner hands it to bash.
func actionScript(t *testing.T, id string) string {
	t.Helper()
	b, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	start := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == "id: "+id {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatalf("action.yml has no step with id %s", id)
	}
	for i := start; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "run: |" {
			continue
		}
		indent := len(lines[i]) - len(strings.TrimLeft(lines[i], " ")) + 2
		var script []string
		for _, l := range lines[i+1:] {
			if strings.TrimSpace(l) != "" && len(l)-len(strings.TrimLeft(l, " ")) < indent {
				break
			}
			script = append(script, strings.TrimPrefix(l, strings.Repeat(" ", indent)))
		}
		return strings.Join(script, "\n")
	}
	t.Fatalf("action.yml: step %s has no run: | script", id)
	return ""
}

// TestActionUntrustedOutput runs the action's script with a toolnorm that
// prints workflow commands, as an adapter's messages or a corpus's
// descriptions may: every line toolnorm prints, to stdout or stderr, in
// every format, reaches the log only while workflow commands are stopped.
func TestActionUntrustedOutput(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	script := actionScript(t, "run")
	for _, format := range []string{"text", "markdown", "json"} {
		for _, checks := range []string{"0", "64"} {
			dir := t.TempDir()
			fake := filepath.Join(dir, "toolnorm")
			// The fake toolnorm records its arguments and prints commands.
			if err := os.WriteFile(fake, []byte("#!/bin/sh\necho \"$*\" >\""+dir+"/args\"\necho '::error::from stdout'\necho '  ::error::from stderr' >&2\nexit 1\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("bash", "-e", "-c", script)
			cmd.Dir = dir
			baseline := "" // with --checks, a baseline too
			if checks != "0" {
				baseline = "known roots.json"
			}
			cmd.Env = append(os.Environ(), "TOOLNORM="+fake, "COMMAND=check", "IMPL=python3 a.py", "BUDGET=1m", "CHECKS="+checks,
				"DURATION=5m", "CORPUS=", "ADD_CORPUS="+baseline, "BASELINE="+baseline, "SEED=1", "TIMEOUT=10s", "FORMAT="+format, "REPORT=", "FAIL=true",
				"RUNNER_TEMP="+dir, "GITHUB_STEP_SUMMARY="+filepath.Join(dir, "summary"), "GITHUB_OUTPUT="+filepath.Join(dir, "output"))
			out, err := cmd.CombinedOutput()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Fatalf("%s: the step ended with %v, want exit status 1 (toolnorm's):\n%s", format, err, out)
			}
			stopped := ""
			seen := 0
			for _, l := range strings.Split(string(out), "\n") {
				l = strings.TrimSpace(l) // the runner trims leading spaces
				switch {
				case strings.HasPrefix(l, "::stop-commands::"):
					stopped = strings.TrimPrefix(l, "::stop-commands::")
				case stopped != "" && l == "::"+stopped+"::":
					stopped = ""
				case strings.HasPrefix(l, "::error::from"):
					seen++
					if stopped == "" {
						t.Errorf("format %s: %q reaches the log as a workflow command", format, l)
					}
				}
			}
			if seen == 0 {
				t.Errorf("format %s: toolnorm's output is not shown in the log:\n%s", format, out)
			}
			// The step goes on past toolnorm's failure, under bash -e as
			// the runner runs it: the report reaches the log and the job
			// summary, and the exit status the step's output.
			if output, _ := os.ReadFile(filepath.Join(dir, "output")); !strings.Contains(string(output), "exit-code=1\n") {
				t.Errorf("format %s: the step's output is %q, want exit-code=1", format, output)
			}
			if summary, _ := os.ReadFile(filepath.Join(dir, "summary")); format == "markdown" && !strings.Contains(string(summary), "::error::from stdout") {
				t.Errorf("format %s: the job summary does not hold the failing report: %q", format, summary)
			}
			args, _ := os.ReadFile(filepath.Join(dir, "args"))
			want := "--budget 1m"
			if checks != "0" {
				want = "--checks " + checks
			}
			if !strings.Contains(string(args), want) || strings.Contains(string(args), "--budget") == (checks != "0") {
				t.Errorf("checks %s: toolnorm ran with %q, want %s", checks, args, want)
			}
			if strings.Contains(string(args), "--baseline") != (baseline != "") || baseline != "" && !strings.Contains(string(args), "--add-corpus "+baseline+" --baseline "+baseline) {
				t.Errorf("baseline %q: toolnorm ran with %q", baseline, args)
			}
		}
	}
}

// TestSetupGoPinned: the action, which users run with their secrets, the
// workflows and the one toolnorm init writes pin actions/setup-go by
// commit, as README asks of users.
func TestSetupGoPinned(t *testing.T) {
	files, _ := filepath.Glob(".github/workflows/*.yml")
	files = append(files, "action.yml", "cmd/toolnorm/internal/initcmd/templates/workflow.yml.tmpl")
	uses := regexp.MustCompile(`(?m)^\s*-?\s*uses:\s*(\S+)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range uses.FindAllStringSubmatch(string(b), -1) {
			ref := m[1]
			if !strings.HasPrefix(ref, "actions/setup-go") {
				continue
			}
			if !regexp.MustCompile(`@[0-9a-f]{40}$`).MatchString(ref) {
				t.Errorf("%s: %s is not pinned to a commit", f, ref)
			}
		}
	}
}

// TestActionOneRun: the action's check runs toolnorm once, and that run
// writes every report (--output): the Markdown of the job summary, cut to
// fit (--max-markdown-size), the JUnit, JSON and HTML files asked for
// (their directory made), with one seed, picked by the step when the input
// is 0 and given as its output.
func TestActionOneRun(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	script := actionScript(t, "run")
	// The fake toolnorm logs its arguments, prints its --format, and
	// writes each --output FORMAT=FILE as "FORMAT report".
	fake := `#!/bin/bash
echo "$*" >>"$(dirname "$0")/runs"
format=text
while [ $# -gt 0 ]; do
  case $1 in
  --format) format=$2; shift ;;
  --output) printf '%s report\n' "${2%%=*}" >"${2#*=}"; shift ;;
  esac
  shift
done
echo "$format report"
exit 1
`
	for _, tc := range []struct{ format, seed, summary string }{
		{"markdown", "7", "markdown report\n"},
		{"text", "0", "markdown report\n"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "toolnorm"), []byte(fake), 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", "-e", "-c", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TOOLNORM="+filepath.Join(dir, "toolnorm"), "COMMAND=check", "IMPL=python3 a.py", "BUDGET=1m", "CHECKS=16",
			"DURATION=5m", "CORPUS=", "ADD_CORPUS=", "BASELINE=", "SEED="+tc.seed, "TIMEOUT=", "FORMAT="+tc.format, "REPORT=",
			"JUNIT=out/t.xml", "JSON=out/t.json", "HTML=", "SUMMARY=true", "SUMMARY_MAX_SIZE=921600", "FAIL=true",
			"RUNNER_TEMP="+dir, "GITHUB_STEP_SUMMARY="+filepath.Join(dir, "summary"), "GITHUB_OUTPUT="+filepath.Join(dir, "output"))
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("%s: the step ended with %v, want exit status 1:\n%s", tc.format, err, out)
		}
		runs, _ := os.ReadFile(filepath.Join(dir, "runs"))
		if n := strings.Count(string(runs), "\n"); n != 1 {
			t.Fatalf("%s: toolnorm ran %d times, want once:\n%s", tc.format, n, runs)
		}
		args := string(runs)
		for _, want := range []string{"--output junit=out/t.xml", "--output json=out/t.json", "--max-markdown-size 921600", "--format " + tc.format} {
			if !strings.Contains(args, want) {
				t.Errorf("%s: toolnorm ran with %q, without %s", tc.format, args, want)
			}
		}
		if strings.Contains(args, "html=") {
			t.Errorf("%s: an html input left empty is written: %q", tc.format, args)
		}
		if summarized := strings.Contains(args, "--output markdown="); summarized != (tc.format != "markdown") {
			t.Errorf("%s: toolnorm ran with %q: the Markdown of the summary is not of the same run", tc.format, args)
		}
		for file, want := range map[string]string{"out/t.xml": "junit report\n", "out/t.json": "json report\n", "summary": tc.summary} {
			if b, _ := os.ReadFile(filepath.Join(dir, file)); string(b) != want {
				t.Errorf("%s: %s holds %q, want %q", tc.format, file, b, want)
			}
		}
		seed := regexp.MustCompile(`--seed (\d+)`).FindStringSubmatch(args)
		output, _ := os.ReadFile(filepath.Join(dir, "output"))
		if seed == nil || seed[1] == "0" || !strings.Contains(string(output), "seed="+seed[1]+"\n") || tc.seed != "0" && seed[1] != tc.seed {
			t.Errorf("seed %s: toolnorm ran with %q, and the step's output is %q", tc.seed, args, output)
		}
		if tc.seed == "0" && !strings.Contains(string(out), "toolnorm: seed "+seed[1]+" (picked)") {
			t.Errorf("the seed picked is not printed:\n%s", out)
		}
	}
}
