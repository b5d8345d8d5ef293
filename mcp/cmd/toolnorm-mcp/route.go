package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"sync"

	"github.com/toolnorm/toolnorm/impl"
)

// router decides, for a case a library cannot carry, what the answer is:
// with strict, an error that says why; otherwise the answer of the same
// middleware called directly, without the library's transport, counted
// under the reason.
type router struct {
	lib    string
	strict bool

	mu      sync.Mutex
	carried int
	direct  map[string]int
}

func newRouter(lib string, strict bool) *router {
	return &router{lib: lib, strict: strict, direct: map[string]int{}}
}

// carry counts a case the library carried.
func (r *router) carry() {
	r.mu.Lock()
	r.carried++
	r.mu.Unlock()
}

// cannotCarry answers a case the library cannot carry, for the reason
// why, with direct (the middleware called directly) unless strict.
func (r *router) cannotCarry(why string, direct func() impl.Result) impl.Result {
	if r.strict {
		return impl.Reject(impl.ErrUnspecified, r.lib+" cannot carry this case: "+why)
	}
	r.mu.Lock()
	r.direct[why]++
	r.mu.Unlock()
	return direct()
}

// Stats is what a run of the adapter did, as -stats writes it.
type Stats struct {
	Library string `json:"library"`
	Strict  bool   `json:"strict"`
	// Carried counts the cases sent through the library; Direct, by
	// reason, those the library cannot carry, sent to the middleware
	// directly (none with strict: those were answered with an error).
	Carried int            `json:"carried"`
	Direct  map[string]int `json:"direct"`
}

func (r *router) stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	d := make(map[string]int, len(r.direct))
	for k, v := range r.direct {
		d[k] = v
	}
	return Stats{Library: r.lib, Strict: r.strict, Carried: r.carried, Direct: d}
}

// writeStats appends the run's Stats to the file at path, one JSON line.
func (r *router) writeStats(path string) error {
	b, err := json.Marshal(r.stats())
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("-stats: %w", err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("-stats %s: %w", path, err)
	}
	return f.Close()
}

// String is the Stats in a line for stderr.
func (s Stats) String() string {
	reasons := make([]string, 0, len(s.Direct))
	for k := range s.Direct {
		reasons = append(reasons, k)
	}
	sort.Strings(reasons)
	out := fmt.Sprintf("%s: %d cases carried by the library", s.Library, s.Carried)
	for _, k := range reasons {
		out += fmt.Sprintf("; %d sent to the middleware directly: %s", s.Direct[k], k)
	}
	return out
}

// nesting is how deeply arrays and objects nest in the JSON text b
// (strings skipped).
func nesting(b []byte) int {
	depth, most, in := 0, 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case in:
		case c == '[' || c == '{':
			depth++
			most = max(most, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return most
}
