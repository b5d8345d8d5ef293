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
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("REPO", repo) // scripts reach examples/ through $REPO
			for name, value := range goEnv {
				env.Setenv(name, value)
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
