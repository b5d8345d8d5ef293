package explain

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"

	"github.com/toolnorm/toolnorm/check/internal/deviation"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// CheckTitle reports what a root cause claims that the implementation im
// does not bear out, or nil. It is the invariant every report keeps, which
// the tests hold over the reports they make:
//
//   - its counterexample fails: im's answer on it is not the expected one
//     (a failure of the program, for a failure's root cause);
//   - a root cause a deviation names: the deviation (with the one it needs
//     beside it, if any) gives exactly im's answer on the counterexample,
//     and im answers as the deviation does on every witness of it (or as
//     it does with another deviation that im shows on its title's
//     example, as the experiments allow);
//   - any other: each text its title quotes that the counterexample holds
//     (a keyword of its schema, a reference or a number of its
//     arguments) is needed: with it taken out, im no longer fails that
//     way.
func CheckTitle(ctx context.Context, im impl.Impl, want func(impl.Case) impl.Result, rc RootCause) error {
	got := im.Normalize(ctx, rc.Case)
	cmp := impl.Compare(got, want(rc.Case))
	switch {
	case rc.Clause == "failure":
		if cmp.Failure == nil {
			return fmt.Errorf("%s: its counterexample does not fail the program: %v", rc.ID, got)
		}
		return nil
	case rc.Got.Failure == nil && impl.Same(rc.Got, rc.Want):
		return nil // a property's violation its case does not show
	case !cmp.Violation():
		return fmt.Errorf("%s: its counterexample does not fail: %v", rc.ID, got)
	}
	if len(rc.Deviations) > 0 {
		return checkDeviations(ctx, im, want, rc, got)
	}
	for _, q := range quotedIn(rc.Title) {
		if err := needed(ctx, im, want, rc, q); err != nil {
			return err
		}
	}
	return nil
}

func checkDeviations(ctx context.Context, im impl.Impl, want func(impl.Case) impl.Result, rc RootCause, got impl.Result) error {
	var x explanation
	for _, id := range slices.Concat(rc.Deviations, rc.With) {
		d := deviation.ByID(id)
		if d == nil {
			return fmt.Errorf("%s: no deviation %q", rc.ID, id)
		}
		x = append(x, d)
	}
	if len(rc.With) == 0 && !x.explains(ctx, rc.Case, got) {
		return fmt.Errorf("%s: the deviation does not give the answer on its counterexample: %v, it gives %v", rc.ID, got, deviation.Apply(ctx, rc.Case, x...))
	}
	for _, d := range x[:len(rc.Deviations)] {
		for _, w := range d.Witnesses {
			w.Options.Repairs, w.Options.Depth = rc.Case.Options.Repairs, rc.Case.Options.Depth
			g := im.Normalize(ctx, w)
			if !(explanation{d}).explains(ctx, w, g) && !slices.ContainsFunc(x, func(e *deviation.Deviation) bool {
				return e != d && pair(d, e).explains(ctx, w, g)
			}) && !excused(ctx, im, want, d, w, g) {
				return fmt.Errorf("%s: on its witness %s %s the implementation gives %v, the deviation %v", rc.ID, w.Schema, w.Args, g, deviation.Apply(ctx, w, d))
			}
		}
	}
	return nil
}

// excused reports whether im's answer g on d's witness w is d's together
// with another deviation that im shows on the example of its title (one
// that differs from the reference under w's options), as
// the experiments excuse a witness (lab.witness): a second bug of the
// implementation's may change what the first gives.
func excused(ctx context.Context, im impl.Impl, want func(impl.Case) impl.Result, d *deviation.Deviation, w impl.Case, g impl.Result) bool {
	for _, e := range deviation.Catalogue() {
		if e == d || !deviation.Compatible(d, e) || !pair(d, e).explains(ctx, w, g) {
			continue
		}
		if showsOnExample(ctx, e, w.Options, want, func(c impl.Case) (impl.Result, bool) { return im.Normalize(ctx, c), true }) {
			return true
		}
	}
	return false
}

var quotedRE = regexp.MustCompile("`([^`]+)`")

func quotedIn(title string) []string {
	var out []string
	for _, m := range quotedRE.FindAllStringSubmatch(title, -1) {
		out = append(out, m[1])
	}
	return out
}

// needed checks that the quoted text q, where rc's counterexample holds
// it, is needed for the failure: in the schema as a key (a keyword) with
// its member dropped, in the arguments replaced by a plain letter.
func needed(ctx context.Context, im impl.Impl, want func(impl.Case) impl.Result, rc RootCause, q string) error {
	var without []impl.Case
	if k := []byte(`"` + q + `":`); bytes.Contains(rc.Case.Schema, k) {
		if s, ok := dropKey(rc.Case.Schema, q); ok {
			c := rc.Case
			c.Schema = s
			without = append(without, c)
		}
	}
	if bytes.Contains(rc.Case.Args, []byte(q)) {
		c := rc.Case
		c.Args = bytes.ReplaceAll(rc.Case.Args, []byte(q), []byte("x"))
		without = append(without, c)
	}
	for _, c := range without {
		w := want(c)
		if w.Error != "" && rc.Want.Error == "" {
			continue // taking it out broke the case: it says nothing
		}
		g := im.Normalize(ctx, c)
		if impl.Compare(g, w).Violation() && classify(c, w, g).Class == rc.Class {
			return fmt.Errorf("%s: its title names %q, but without it %s %s still fails the same way: %v", rc.ID, q, c.Schema, c.Args, g)
		}
	}
	return nil
}

// dropKey returns the schema text without the members named key, at any
// depth; false when it does not parse.
func dropKey(schema []byte, key string) ([]byte, bool) {
	doc, err := jsonvalue.Parse(schema)
	if err != nil {
		return nil, false
	}
	var walk func(v *jsonvalue.Value)
	walk = func(v *jsonvalue.Value) {
		v.Members = slices.DeleteFunc(v.Members, func(m jsonvalue.Member) bool { return m.Key == key })
		for _, m := range v.Members {
			walk(m.Value)
		}
		for _, e := range v.Elems {
			walk(e)
		}
	}
	walk(doc)
	return doc.Append(nil), true
}
