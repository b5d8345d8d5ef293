package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/toolnorm/toolnorm/cmd/toolnorm/internal/cli"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"toolnorm": func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScript runs the end-to-end scripts in testdata/script, one file per
// behaviour, named by subcommand first.
func TestScript(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	// Scripts that run the go command (init_go.txtar) share this machine's
	// build and module caches: testscript's HOME is /no-home.
	goEnv := map[string]string{}
	if out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output(); err == nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		for i, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
			if i < len(lines) && lines[i] != "" {
				goEnv[name] = lines[i]
			}
		}
	}
	bin := interpreters(t)
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("REPO", repo) // scripts reach examples/ through $REPO
			for name, value := range goEnv {
				env.Setenv(name, value)
			}
			if bin != "" {
				env.Setenv("PATH", bin+string(filepath.ListSeparator)+env.Getenv("PATH"))
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "node-example": // the Node.js example's npm package is installed
				_, err := os.Stat(filepath.Join(repo, "examples/node/node_modules/he/package.json"))
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}

// interpreters is a directory whose python3 is the interpreter python3
// runs here, linked directly, or "" when that is python3 itself. A
// version manager's shim in front of python3 (pyenv's) costs 0.15 s or
// more a start, and the scripts start adapters again and again: after
// each crash, to confirm it, and for each job.
func interpreters(t *testing.T) string {
	shim, err := exec.LookPath("python3")
	if err != nil {
		return ""
	}
	out, err := exec.Command(shim, "-c", "import sys; print(sys.executable)").Output()
	real := strings.TrimSpace(string(out))
	if err != nil || real == "" || real == shim {
		return ""
	}
	if _, err := os.Stat(real); err != nil {
		return ""
	}
	dir := t.TempDir()
	if err := os.Symlink(real, filepath.Join(dir, "python3")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestScriptsRunWhatTheySay: a script's commands stand before its first
// file: what follows a "-- name --" line is that file's text, so an
// assertion written after one never runs (two scripts had a whole section
// so, green for rounds). A line of a file that reads as an assertion of
// the script, or a run of toolnorm, is taken for one.
func TestScriptsRunWhatTheySay(t *testing.T) {
	files, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	command := regexp.MustCompile(`^(!\s*)?(stdout|stderr) '|^(!\s*)?exec toolnorm |^(!\s*)?cmp `)
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range ar.Files {
			for i, line := range strings.Split(string(file.Data), "\n") {
				if command.MatchString(line) {
					t.Errorf("%s: file %s, line %d reads as a command of the script, which never runs there: %s", f, file.Name, i+1, line)
				}
			}
		}
	}
}
