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

	mu    sync.Mutex
	m     map[schemaKey]compiled // the newer generation
	old   map[schemaKey]compiled // the older
	bytes int                    // of the schemas in m
}

type schemaKey struct {
	schema string
	o      Options
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
	k := schemaKey{string(schema), o}
	c.mu.Lock()
	got, ok := c.m[k]
	if !ok {
		if got, ok = c.old[k]; ok {
			delete(c.old, k)
			c.add(k, got)
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
	c.add(k, compiled{s, err})
	return s, err
}

// add puts k in the newer generation, which becomes the older first if it
// is full. c.mu is held.
func (c *schemas) add(k schemaKey, v compiled) {
	if c.m == nil || len(c.m) >= maxCached || c.bytes+len(k.schema) > maxCachedBytes {
		c.old, c.m, c.bytes = c.m, make(map[schemaKey]compiled), 0
	}
	c.m[k] = v
	c.bytes += len(k.schema)
}
