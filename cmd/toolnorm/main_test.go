package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

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
