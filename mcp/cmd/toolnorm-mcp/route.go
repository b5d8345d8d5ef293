package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"sync"

	"github.com/toolnorm/toolnorm/impl"
)

// The answers to a case a library cannot carry.
const (
	// Unsupported (the default): the case is answered unsupported, and
	// toolnorm counts it as skipped, not judged: what the library cannot
	// carry says nothing of the middleware, and the middleware's answer
	// without the library would not be what a server gives.
	Unsupported = "unsupported"
	// Strict: an error that names the reason, so that toolnorm reports it.
	Strict = "strict"
	// Direct: the answer of the same middleware called directly, without
	// the library's transport, counted under the reason.
	Direct = "direct"
)

// router decides, for a case a library cannot carry, what the answer is
// (Unsupported, Strict or Direct).
type router struct {
	lib  string
	mode string

	mu      sync.Mutex
	carried int
	direct  map[string]int // by reason: the cases not carried
}

func newRouter(lib, mode string) *router {
	return &router{lib: lib, mode: mode, direct: map[string]int{}}
}

// carry counts a case the library carried.
func (r *router) carry() {
	r.mu.Lock()
	r.carried++
	r.mu.Unlock()
}

// cannotCarry answers a case the library cannot carry, for the reason
// why, as the router's mode says (direct calls the middleware directly).
func (r *router) cannotCarry(why string, direct func() impl.Result) impl.Result {
	r.mu.Lock()
	r.direct[why]++
	r.mu.Unlock()
	switch r.mode {
	case Strict:
		return impl.Reject(impl.ErrUnspecified, r.lib+" cannot carry this case: "+why)
	case Direct:
		return direct()
	}
	return impl.Fail(fmt.Errorf("%w: %s cannot carry it", impl.ErrNotSendable, r.lib), r.lib+" cannot carry this case: "+why)
}

// Stats is what a run of the adapter did, as -stats writes it.
type Stats struct {
	Library string `json:"library"`
	Mode    string `json:"mode"` // unsupported, strict or direct
	// Carried counts the cases sent through the library; NotCarried, by
	// reason, those the library cannot carry, answered as Mode says.
	Carried    int            `json:"carried"`
	NotCarried map[string]int `json:"not_carried"`
}

func (r *router) stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	d := make(map[string]int, len(r.direct))
	for k, v := range r.direct {
		d[k] = v
	}
	return Stats{Library: r.lib, Mode: r.mode, Carried: r.carried, NotCarried: d}
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
	reasons := make([]string, 0, len(s.NotCarried))
	for k := range s.NotCarried {
		reasons = append(reasons, k)
	}
	sort.Strings(reasons)
	out := fmt.Sprintf("%s: %d cases carried by the library", s.Library, s.Carried)
	for _, k := range reasons {
		out += fmt.Sprintf("; %d not carried (answered %s): %s", s.NotCarried[k], s.Mode, k)
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

// newLogger is the adapter's logger, for the library and the middleware:
// on stderr with -v, else nowhere.
func newLogger(verbose bool) *slog.Logger {
	w := io.Discard
	if verbose {
		w = os.Stderr
	}
	return slog.New(slog.NewTextHandler(w, nil))
}
