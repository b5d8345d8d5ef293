// Command toolnorm normalizes tool arguments under rule RT-TOOL-8 of the
// FlowDrop Workflow Specification, and checks other implementations of it.
//
// Usage:
//
//	toolnorm normalize --schema FILE [--args FILE] [--profile text|attribute] [--max-passes N] [--explain]
//
// Run "toolnorm help" for every command, and "toolnorm completion" for shell
// completion scripts.
package main

import (
	"os"

	"github.com/toolnorm/toolnorm/cmd/toolnorm/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
