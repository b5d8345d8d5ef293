// Command difftest answers cases as the reference does, for the bug zoo's
// differential test (difftest.py beside it): it reads JSON lines
// {"schema": ..., "arguments": ..., "opts": {...}} on standard input and
// writes one line for each, {"arguments": ...} or {"error": "..."}, with
// the reference (package normalize) read as opts says: depth "top",
// profile "attribute", max_passes N, repairs "json" or "entities".
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/toolnorm/toolnorm/normalize"
)

type request struct {
	Schema    json.RawMessage `json:"schema"`
	Arguments json.RawMessage `json:"arguments"`
	Opts      struct {
		Depth     string `json:"depth"`
		Profile   string `json:"profile"`
		MaxPasses int    `json:"max_passes"`
		Repairs   string `json:"repairs"`
	} `json:"opts"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		out.Write(answer(in.Bytes()))
		out.WriteByte('\n')
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "difftest:", err)
		os.Exit(1)
	}
}

func answer(line []byte) []byte {
	var r request
	if err := json.Unmarshal(line, &r); err != nil {
		b, _ := json.Marshal(map[string]string{"error": "bad request: " + err.Error()})
		return b
	}
	var opts []normalize.Option
	if r.Opts.Depth == "top" {
		opts = append(opts, normalize.WithDepth(normalize.TopLevel))
	}
	if r.Opts.Profile == "attribute" {
		opts = append(opts, normalize.WithProfile(normalize.Attribute))
	}
	if r.Opts.MaxPasses > 0 {
		opts = append(opts, normalize.WithMaxPasses(r.Opts.MaxPasses))
	}
	switch r.Opts.Repairs {
	case "json":
		opts = append(opts, normalize.WithRepairs(normalize.JSONRepair))
	case "entities":
		opts = append(opts, normalize.WithRepairs(normalize.EntityRepair))
	}
	s, err := normalize.Compile(r.Schema, opts...)
	var res []byte
	if err == nil {
		res, err = s.Normalize(r.Arguments)
	}
	if err != nil {
		b, _ := json.Marshal(map[string]string{"error": err.Error()})
		return b
	}
	return append(append([]byte(`{"arguments":`), res...), '}')
}
