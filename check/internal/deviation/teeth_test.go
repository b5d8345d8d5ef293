package deviation_test

import (
	"context"
	"flag"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/toolnorm/toolnorm/check/internal/deviation"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/properties"
)

// defaultChecks is rapid's default number of checks, TestTeeth's budget.
const defaultChecks = 100

var teethChecks = flag.Int("teeth.checks", defaultChecks, "checks per property and deviation in TestTeeth (100: rapid's default)")

// uncaught are the deviations no property catches within TestTeeth's
// budget (defaultChecks, seed 1), each with why: what the properties'
// generators (properties/gen.go, and each property's own draws in
// properties/property.go) do not draw. At that budget TestTeeth fails
// when one of them is caught (take it out of the table) or when a
// deviation not in it is not. These are gaps of the properties, not of
// the catalogue: a property that draws what is missing closes one.
var uncaught = map[string]string{
	"json-length-limit":              "no string drawn is longer than 64 KiB",
	"older-draft":                    "the properties draw no schema that drafts read apart: no keyword beside `$ref`, no `$anchor`",
	"schema-not-checked":             "the properties draw schemas the reference compiles: none is broken",
	"decoded-duplicates-collapsed":   "the JSON text drawn for the properties holds distinct keys in every object",
	"json-nonfinite":                 "no JSON text drawn holds the words `NaN` or `Infinity` (a number past float64 is drawn as `1e400`, which is JSON)",
	"json-raw-surrogates":            "JSON text is drawn by writing a value, which escapes a lone surrogate (`\\ud800`): no drawn JSON text holds one raw",
	"json-lenient":                   "no text drawn is JSON with single quotes, trailing commas, comments or bare keys: broken JSON is drawn as JSON text with text after it",
	"json-trailing-commas":           "no text drawn is JSON with a trailing comma: broken JSON is drawn as JSON text with text after it",
	"entities-case-insensitive":      "names are drawn from HTML's table as it spells them; only a random name can spell one in another case: caught with 1,000 checks, not 100",
	"untyped-levels-skipped":         "every schema drawn with `properties` or `items` says its `type` beside them",
	"ref-items-dropped":              "only a `$ref` to an array whose `items` declare an array or object, with an element sent as JSON text, shows it: drawn too rarely (none in 1,000 checks)",
	"ignores-dynamic-ref":            "no schema drawn has `$dynamicRef` or `$recursiveRef`",
	"first-allof-only":               "an `allOf` is drawn with the declaration in its first branch, but for one schema of wrong-shape-passes: caught with 1,000 checks, not 100",
	"ignores-oneof":                  "`oneOf` is drawn only as a union of object and string, where a string is kept whether it is read or not",
	"ignores-prefixitems":            "no schema drawn has `prefixItems`",
	"prefixitems-2020-12-only":       "no schema drawn has `prefixItems`",
	"ignores-tuple-items":            "no schema drawn has `items` as a list or `additionalItems`",
	"ref-siblings-dropped":           "every `$ref` drawn stands alone in its object",
	"drafts-ignored":                 "no schema drawn has `$schema`",
	"embedded-drafts-ignored":        "no schema drawn has `$schema`, nor an embedded resource that names its own",
	"entities-numeric-bmp-only":      "a numeric reference is drawn past U+FFFF one time in a few hundred: caught with 1,000 checks (after 147), not 100",
	"allof-as-union":                 "the allOf the old generators draw shows it at seed 1 only by chance of the stream: with one case in four drawn from the schema search (issue 36), whose allOf branches never exclude each other's container, none of the 100 checks draws `allOf` of two types that do not meet, or a branch that narrows a type list",
	"union-ref-branches-skipped":     "a `$ref` is a branch of an `anyOf` only where a wrap is drawn inside a wrap, with JSON text sent under it: none in 1,000 checks",
	"allof-members-first":            "the properties' `allOf` wraps one schema beside a description: no member is declared in two branches, or in a branch and beside it",
	"types-added":                    "a `type` beside an `anyOf` or `oneOf` that admits a string, or an `allOf` whose branches name different containers, with JSON text sent there, is drawn rarely",
	"inherited-member-copied":        "no case drawn declares a member named after a method of `Object.prototype` (`constructor`, `toString`) and leaves it out",
	"duplicates-collapsed":           "the arguments drawn for the properties that compare members hold distinct keys at every level",
	"unions-merged-into-allof":       "an `allOf` branch that is only an `anyOf` or `oneOf` is drawn only where a wrap is drawn inside a wrap, and shows only where the union's branches do not meet (an array or an object beside `null`, or a branch that declares no type): none in 1,000 checks; the corpus's `an-anyof-inside-allof-intersects-with-the-other-branch` catches it",
	"union-untyped-branches-skipped": "the properties' unions are `anyOf` beside `null` and the schema search's, whose branches each declare a type: a branch that declares none, beside one that declares an array or object, is not drawn (none in 1,000 checks)",
	"ref-pointer-tilde-order":        "the names of `$defs` drawn hold no `~` nor `/`, so no `$ref` drawn has an escape to unescape in either order (none in 1,000 checks)",
	"properties-inherited-lookup":    "a member named as one of Object.prototype's is drawn, but not sent undeclared where `additionalProperties` beside `properties` declares an array or object for it (none in 1,000 checks)",
	"ref-siblings-read-in-draft-7":   "the properties' schemas name no `$schema`, and the schema search's draft-07 schemas put no keyword beside a `$ref` that declares what its target does not (none in 1,000 checks); the corpus's `in-draft-7-keywords-beside-ref-are-ignored-its-type-does-not` catches it",
	"unevaluated-as-additional":      "`unevaluatedProperties` is drawn by the schema search beside `properties`, but no member it alone would declare is sent as JSON text of the shape it names (none in 1,000 checks)",
	"ref-pointer-only":               "an anchor or an `$id` is drawn by the schema search as the way to a `$ref`'s target where JSON text is sent under it, one case in a few hundred: caught with 1,000 checks (after 168), not 100",
	"ref-pointer-as-written":         "the same as ref-pointer-only: caught with 1,000 checks (after 118), not 100",
	"additional-over-patterns":       "`additionalProperties` is drawn only beside a pattern, as `{\"type\":\"string\"}`: read over the pattern, it shows only where a member the pattern matches is sent as JSON text the pattern's schema decodes: caught with 1,000 checks (after 102), not 100",
}

// TestTeeth runs the whole property suite on the reference with each
// deviation of the catalogue, a broken normalizer: every one must be
// caught within the default budget, with a small counterexample; the
// reference must be caught by none. It logs which properties caught each
// and how many checks that took.
func TestTeeth(t *testing.T) {
	ctx := context.Background()
	o := properties.RunOptions{Checks: *teethChecks, Seed: 1}
	for id := range uncaught {
		if deviation.ByID(id) == nil {
			t.Errorf("uncaught names %s, which is no deviation of the catalogue", id)
		}
	}
	for _, p := range properties.All() {
		if v, _ := p.Run(ctx, impl.Reference, o); v != nil {
			t.Errorf("the reference breaks %s: %s", p.ID, v.Message)
		}
	}
	for _, d := range deviation.Catalogue() {
		start := time.Now()
		im := d.Impl()
		var caught []string
		first := -1
		for _, p := range properties.All() {
			v, _ := p.Run(ctx, im, o)
			if v == nil {
				continue
			}
			caught = append(caught, p.ID)
			if first < 0 || v.Checks < first {
				first = v.Checks
			}
			if v.Vector == nil {
				t.Errorf("%s breaks %s without a counterexample: %s", d.ID, p.ID, v.Message)
			} else if len(v.Vector.ArgumentsText()) > 400 {
				t.Errorf("%s breaks %s, but the counterexample is not small: %s", d.ID, p.ID, v.Vector.ArgumentsText())
			}
		}
		sort.Strings(caught)
		why, known := uncaught[d.ID]
		switch {
		case len(caught) == 0 && !known:
			t.Errorf("%s (%s) is caught by no property", d.ID, d.Title)
		case len(caught) == 0:
			t.Logf("%-36s caught by no property, as uncaught says: %s", d.ID, why)
		case known && *teethChecks == defaultChecks:
			t.Errorf("%s is caught by %s: take it out of uncaught", d.ID, strings.Join(caught, ", "))
		default:
			t.Logf("%-36s caught after %3d checks by %d properties in %v: %s", d.ID, first, len(caught), time.Since(start).Round(time.Millisecond), strings.Join(caught, ", "))
		}
	}
}
