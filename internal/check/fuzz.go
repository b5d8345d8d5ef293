package check

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/properties"
)

// Fuzzer compares an implementation with the reference on generated cases
// and on mutations of corpus vectors. Each difference is minimized and
// bucketed, so that one bug found a thousand times is one finding.
type Fuzzer struct {
	Impl    impl.Impl
	Command string           // the --impl command line, for reproduction commands
	Seeds   []*corpus.Vector // vectors to mutate
	// Known holds the buckets found before (when resuming): they are not
	// reported again.
	Known map[string]bool
	// OnFinding is called with each new finding, as soon as it is found
	// (to write it: nothing is lost if the run is stopped).
	OnFinding func(Finding) error

	Cases    int // cases run
	Findings []Finding

	seen map[string]bool // buckets of unminimized cases met in this run
}

// Stats is a moment of a fuzzing run.
type Stats struct {
	Cases    int
	Findings int
	Elapsed  time.Duration
}

const fuzzProperty = "agrees-with-reference"

// errGaveUp ends a fuzzing run whose implementation can no longer be
// restarted.
var errGaveUp = errors.New("the implementation stopped answering and could not be restarted")

// Run fuzzes until the deadline or until ctx is done, calling tick after
// each batch.
func (f *Fuzzer) Run(ctx context.Context, seed uint64, deadline time.Time, tick func(Stats)) error {
	if f.Known == nil {
		f.Known = map[string]bool{}
	}
	f.seen = map[string]bool{}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	gen := properties.Cases(f.Impl)
	seeds := usable(f.Impl, f.Seeds)
	start := time.Now()
	batch := 64
	if f.Impl.Name() != impl.Reference.Name() {
		batch = 256 // an adapter: pipelined
	}
	for i := 0; ; i++ {
		if ctx.Err() != nil || time.Now().After(deadline) {
			return nil
		}
		cases := make([]properties.Case, batch)
		for j := range cases {
			if len(seeds) > 0 && rng.IntN(3) == 0 {
				cases[j] = mutate(rng, seeds[rng.IntN(len(seeds))])
			} else {
				cases[j] = gen.Example(int(rng.Int64()))
			}
		}
		got := runAll(f.Impl, cases)
		for j, c := range cases {
			want := impl.Reference.Normalize(c.Schema, c.Args, c.Options)
			if got[j].Error == harness.ErrNotSendable || impl.Compare(got[j], want) == "" {
				continue
			}
			if got[j].Error == impl.ErrCrash && strings.Contains(got[j].Detail, harness.ErrDead.Error()) {
				return errGaveUp
			}
			// Minimizing costs thousands of runs: skip a case whose
			// difference, before minimizing, is one already met.
			pre := Bucket(impl.Compare(got[j], want), c.Args, got[j], want)
			if f.seen[pre] {
				continue
			}
			f.seen[pre] = true
			if err := f.found(c, got[j]); err != nil {
				return err
			}
		}
		f.Cases += len(cases)
		if tick != nil {
			tick(Stats{f.Cases, len(f.Findings), time.Since(start)})
		}
	}
}

// found minimizes a failing case and reports it if its bucket is new.
func (f *Fuzzer) found(c properties.Case, got impl.Result) error {
	prop, _ := properties.ByID(fuzzProperty)
	schema, args := c.Schema, c.Args
	if v := corpus.NewFinding(f.Impl, impl.Reference, "", "found", "found", nil, c.Schema, c.Args, c.Options); v != nil {
		// The minimal case, if it still fails (a flaky implementation, or
		// a check's deadline, can make it pass).
		g := f.Impl.Normalize(v.SchemaText(), v.ArgumentsText(), v.Options)
		if impl.Compare(g, impl.Reference.Normalize(v.SchemaText(), v.ArgumentsText(), v.Options)) != "" {
			schema, args, got = v.SchemaText(), v.ArgumentsText(), g
		}
	}
	want := impl.Reference.Normalize(schema, args, c.Options)
	diff := impl.Compare(got, want)
	if diff == impl.ErrCrash && strings.Contains(got.Detail, harness.ErrDead.Error()) {
		return errGaveUp
	}
	bucket := Bucket(diff, args, got, want)
	if f.Known[bucket] {
		return nil
	}
	f.Known[bucket] = true
	msg := diff + ": got " + describe(got) + ", the reference gives " + describe(want)
	// The description names the bucket, so that it is unique and a rerun
	// of the same bug dedupes by it too.
	v := corpus.New("Fuzzing finding "+bucket+": "+truncate(diff, 80), "found", "found", []string{fuzzProperty, "bucket-" + bucket}, schema, args, c.Options, impl.Reference)
	fd := Finding{Property: fuzzProperty, Clause: prop.Clause, Message: msg, Bucket: bucket, Vector: v, Command: command(f.Command, v)}
	f.Findings = append(f.Findings, fd)
	if f.OnFinding != nil {
		return f.OnFinding(fd)
	}
	return nil
}

// Bucket names the kind of a difference, so that one bug found many times
// is one finding: how the results differ and, where both are JSON, what
// stands at the first place they differ (the kind of each value there, and
// whether the argument sent there was text, text with references, or
// JSON text), wherever in the arguments that place is.
func Bucket(diff string, args []byte, got, want impl.Result) string {
	h := sha256.New()
	h.Write([]byte(diff))
	h.Write([]byte{0})
	g, err1 := jsonvalue.Parse(got.Output)
	w, err2 := jsonvalue.Parse(want.Output)
	a, err3 := jsonvalue.Parse(args)
	if err1 == nil && err2 == nil && err3 == nil {
		h.Write([]byte(firstDifference(a, g, w)))
	}
	return hex.EncodeToString(h.Sum(nil))[:10]
}

// firstDifference describes the first place where got and want differ.
func firstDifference(in, got, want *jsonvalue.Value) string {
	if got.Kind != want.Kind {
		return class(in) + ":" + got.Kind.String() + "->" + want.Kind.String()
	}
	switch got.Kind {
	case jsonvalue.Array:
		if len(got.Elems) != len(want.Elems) {
			return class(in) + ":array length"
		}
		for i := range got.Elems {
			if !jsonvalue.Equal(got.Elems[i], want.Elems[i]) {
				return firstDifference(child(in, "", i), got.Elems[i], want.Elems[i])
			}
		}
	case jsonvalue.Object:
		if len(got.Members) != len(want.Members) {
			return class(in) + ":object size"
		}
		for i, m := range got.Members {
			if m.Key != want.Members[i].Key {
				return class(in) + ":keys"
			}
			if !jsonvalue.Equal(m.Value, want.Members[i].Value) {
				return firstDifference(child(in, m.Key, -1), m.Value, want.Members[i].Value)
			}
		}
	}
	return class(in) + ":" + got.Kind.String() + " value"
}

// child is the member key (or element i) of v, nil when there is none or v
// is a string that was decoded.
func child(v *jsonvalue.Value, key string, i int) *jsonvalue.Value {
	if v == nil {
		return nil
	}
	if i >= 0 && v.Kind == jsonvalue.Array && i < len(v.Elems) {
		return v.Elems[i]
	}
	for _, m := range v.Members {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// class says what an argument was: JSON text (J), text with references
// (R), other text (S), or another kind.
func class(v *jsonvalue.Value) string {
	switch {
	case v == nil:
		return "-"
	case v.Kind != jsonvalue.String:
		return v.Kind.String()
	}
	switch s := strings.TrimSpace(v.Str); {
	case strings.HasPrefix(s, "[") || strings.HasPrefix(s, "{"):
		return "J"
	case strings.Contains(s, "&"):
		return "R"
	}
	return "S"
}

// usable returns the vectors the implementation can take.
func usable(im impl.Impl, vectors []*corpus.Vector) []*corpus.Vector {
	configured, isConfigured := im.(impl.Configured)
	var out []*corpus.Vector
	for _, v := range vectors {
		if v.Error != "" || isConfigured && !sameOptions(v.Options, configured.Options()) {
			continue
		}
		out = append(out, v)
	}
	return out
}

func runAll(im impl.Impl, cases []properties.Case) []impl.Result {
	switch g := im.(type) {
	case guarded:
		return g.batch(cases)
	case guardedConfigured:
		return g.batch(cases)
	}
	if a, ok := im.(*harness.Adapter); ok {
		reqs := make([]harness.Request, len(cases))
		for i, c := range cases {
			reqs[i] = harness.Request{Schema: c.Schema, Args: c.Args}
		}
		return a.Run(reqs)
	}
	out := make([]impl.Result, len(cases))
	for i, c := range cases {
		out[i] = im.Normalize(c.Schema, c.Args, c.Options)
	}
	return out
}

// mutate changes a vector's arguments the way models do: a string escaped
// once more, a member sent as its JSON text, a reference added.
func mutate(rng *rand.Rand, v *corpus.Vector) properties.Case {
	c := properties.Case{Schema: v.SchemaText(), Args: v.ArgumentsText(), Options: v.Options}
	root, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return c
	}
	var values []*jsonvalue.Value
	var collect func(*jsonvalue.Value)
	collect = func(x *jsonvalue.Value) {
		values = append(values, x)
		for _, e := range x.Elems {
			collect(e)
		}
		for _, m := range x.Members {
			collect(m.Value)
		}
	}
	collect(root)
	x := values[rng.IntN(len(values))]
	switch {
	case x.Kind == jsonvalue.String && rng.IntN(2) == 0:
		x.Str = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;").Replace(x.Str)
	case x.Kind == jsonvalue.String:
		x.Str += []string{"&amp;", "&lt", "&#38;amp;", "&notin;", "&#x26;lt;", "&"}[rng.IntN(6)]
	case x != root && (x.Kind == jsonvalue.Array || x.Kind == jsonvalue.Object):
		text := string(x.Append(nil))
		*x = jsonvalue.Value{Kind: jsonvalue.String, Str: text}
	}
	c.Args = root.Append(nil)
	return c
}

// fuzz is the fuzzing phase of a check.
func fuzz(cfg Config, seed uint64, deadline time.Time, tick func(cases, found int)) FuzzResult {
	// Past the deadline the reference answers for the implementation, so
	// that a minimization under way ends at once (see runProperty).
	f := &Fuzzer{Impl: guard(cfg.Impl, deadline), Command: cfg.Command, Seeds: cfg.Vectors}
	f.Run(context.Background(), seed, deadline, func(s Stats) { tick(s.Cases, s.Findings) })
	return FuzzResult{Cases: f.Cases, Findings: f.Findings}
}
