// Command toolnorm-mcp is a toolnorm adapter (protocol version 1,
// docs/protocol.md) whose implementation is an MCP middleware of this
// module inside a real MCP server: each case is sent by a real client
// session, over the library's in-memory transport, as a tools/call to a
// tool whose input schema is the case's, and the answer is the arguments
// the tool's handler receives. So toolnorm check holds the middleware, as
// wired into the library, to the same corpus and properties as the
// reference:
//
//	go -C mcp build -o /tmp/toolnorm-mcp ./cmd/toolnorm-mcp
//	go run ./cmd/toolnorm check --impl '/tmp/toolnorm-mcp -lib go-sdk'
//	go run ./cmd/toolnorm check --impl '/tmp/toolnorm-mcp -lib mcp-go'
//
// The handler reads the raw arguments (CallToolParamsRaw.Arguments in the
// SDK, CallToolParams.RawArguments in mcp-go), the bytes the library hands
// a tool that asks for them and the bytes typed handlers are unmarshaled
// from, so member order, duplicates and number text are what they are.
//
// A middleware never refuses a call: where the normalizer rejects the
// input (arguments that are not an object or nest too deep, a schema that
// does not compile) it passes the call on as it came, for the library to
// judge. The adapter answers such a case with an error when the handler
// received the arguments exactly as the server did, and with what it
// received otherwise (which toolnorm then reports). Which inputs the
// normalizer rejects the adapter asks the reference, configured as
// declared, since on the fast path the middleware does not look.
//
// What a library cannot carry, the adapter does not hide. The go-sdk
// takes only an input schema that is an object of "type": "object" (to
// one without "type" the adapter adds it, as a tool author must, unless
// that changes what the reference gives, as a "$ref" to the root can),
// and closes the session on a message nested more than 1000 levels deep;
// mcp-go refuses, before any hook, a call whose arguments hold a number a
// float64 cannot hold (1e400). Such a case is answered unsupported, so
// that toolnorm counts it as skipped, not judged: it says nothing of the
// middleware, and the middleware's answer without the library is not what
// a server gives. It is counted under its reason: on stderr at exit, and
// with -stats FILE as a JSON line. With -strict it is answered instead
// with an error that names the reason, so that toolnorm reports it; with
// -direct, with the answer of the same middleware called directly,
// without the library's transport.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/impl"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "toolnorm-mcp:", err)
		os.Exit(1)
	}
}

// run is the adapter with command-line arguments args, speaking the
// protocol on stdin and stdout.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("toolnorm-mcp", flag.ContinueOnError)
	flags.SetOutput(stderr)
	lib := flags.String("lib", "go-sdk", "the MCP library: go-sdk (github.com/modelcontextprotocol/go-sdk) or mcp-go (github.com/mark3labs/mcp-go)")
	verbose := flags.Bool("v", false, "log the middleware's warnings and each refused call on stderr")
	strict := flags.Bool("strict", false, "answer a case the library cannot carry with an error (default: unsupported, not judged)")
	direct := flags.Bool("direct", false, "answer a case the library cannot carry with the middleware's answer without the library (default: unsupported, not judged)")
	stats := flags.String("stats", "", "append to this file, at exit, a JSON line counting the cases the library carried and those it could not")
	if err := flags.Parse(args); err != nil {
		return err
	}
	var d harness.Declares
	mode := Unsupported
	switch {
	case *strict && *direct:
		return fmt.Errorf("-strict and -direct exclude each other")
	case *strict:
		mode = Strict
	case *direct:
		mode = Direct
	}
	r := newRouter(*lib, mode)
	im, info, err := newImpl(*lib, d.Options(), *verbose, r)
	if err != nil {
		return err
	}
	serveErr := harness.Serve(stdin, stdout, stderr, im, info, d)
	im.Close()
	fmt.Fprintln(stderr, "toolnorm-mcp:", r.stats())
	if *stats != "" {
		if err := r.writeStats(*stats); err != nil && serveErr == nil {
			serveErr = err
		}
	}
	return serveErr
}

// closingImpl is an implementation that holds a server and a client.
type closingImpl interface {
	impl.Impl
	Close() error
}

func newImpl(lib string, o impl.Options, verbose bool, r *router) (closingImpl, harness.Info, error) {
	switch lib {
	case "go-sdk":
		im, err := newSDK(o, verbose, r)
		return im, harness.Info{Name: "toolnorm-mcp go-sdk", Language: "Go", Version: "go-sdk " + sdkVersion, Homepage: "https://github.com/toolnorm/toolnorm/tree/main/mcp"}, err
	case "mcp-go":
		im, err := newMCPGo(o, verbose, r)
		return im, harness.Info{Name: "toolnorm-mcp mcp-go", Language: "Go", Version: "mcp-go " + mcpgoVersion, Homepage: "https://github.com/toolnorm/toolnorm/tree/main/mcp"}, err
	}
	return nil, harness.Info{}, fmt.Errorf("-lib %q: want go-sdk or mcp-go", lib)
}
