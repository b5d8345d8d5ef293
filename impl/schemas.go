package impl

import (
	"context"
	"sync"

	"github.com/toolnorm/toolnorm/normalize"
)

// schemas keeps the schemas the reference compiled lately, with their
// options: a check asks the reference about the same schema several times
// for one case (the implementation's answer when the implementation is the
// reference, then a property's judgment, often with the same options
// again), and compiling the schema costs ten times normalizing the small
// arguments of a case. Compile is deterministic, so a schema compiled once
// under options gives the same results (and the same error) every time.
// It is safe for concurrent use, as a compiled schema is.
//
// It keeps two generations: when the newer is full it becomes the older,
// and a schema found in the older is moved to the newer. A schema asked
// for again after hundreds of others (the properties draw some schemas
// over and over, a round of each property apart) stays, where a cache that
// started over when full lost everything it held.
type schemas struct {
	extra []normalize.Option // after each case's own options

	mu     sync.Mutex
	m, old generation // the newer generation, the older
}

// A generation of the cache: the schemas compiled, by their options and
// text (looked up with the text as bytes, which allocates nothing where a
// key of text and options made a copy of the text each time).
type generation struct {
	by    map[Options]map[string]compiled
	n     int // schemas
	bytes int // of their text
}

func (g *generation) get(schema []byte, o Options) (compiled, bool) {
	v, ok := g.by[o][string(schema)]
	return v, ok
}

type compiled struct {
	s   *normalize.Schema
	err error
}

// The cache's bounds: schemas longer than maxCachedSchema are compiled
// each time (compiling them dwarfs a map lookup anyway), and a generation
// is full when it holds maxCached schemas or maxCachedBytes of them.
const (
	maxCachedSchema = 64 << 10
	maxCached       = 512
	maxCachedBytes  = 4 << 20
)

// compile returns schema compiled under o and the extra options, unless
// ctx is done first; a compile ctx stopped is not kept.
func (c *schemas) compile(ctx context.Context, schema []byte, o Options) (*normalize.Schema, error) {
	if len(schema) > maxCachedSchema {
		return normalize.CompileContext(ctx, schema, append(o.Normalize(), c.extra...)...)
	}
	c.mu.Lock()
	got, ok := c.m.get(schema, o)
	if !ok {
		if got, ok = c.old.get(schema, o); ok {
			delete(c.old.by[o], string(schema))
			c.old.n--
			c.add(schema, o, got)
		}
	}
	c.mu.Unlock()
	if ok {
		return got.s, got.err
	}
	s, err := normalize.CompileContext(ctx, schema, append(o.Normalize(), c.extra...)...)
	if stopped(ctx, err) {
		return s, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.add(schema, o, compiled{s, err})
	return s, err
}

// add puts schema compiled under o in the newer generation, which becomes
// the older first if it is full. c.mu is held.
func (c *schemas) add(schema []byte, o Options, v compiled) {
	if c.m.by == nil || c.m.n >= maxCached || c.m.bytes+len(schema) > maxCachedBytes {
		c.old, c.m = c.m, generation{by: map[Options]map[string]compiled{}}
	}
	in := c.m.by[o]
	if in == nil {
		in = map[string]compiled{}
		c.m.by[o] = in
	}
	if _, dup := in[string(schema)]; !dup {
		c.m.n++
		c.m.bytes += len(schema)
	}
	in[string(schema)] = v
}
