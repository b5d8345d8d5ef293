package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/toolnorm/toolnorm/internal/cli"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"toolnorm": func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScript runs the end-to-end scripts in testdata/script, one file per
// behaviour, named by subcommand first.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
