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
	"json-length-limit":               "no string drawn is longer than 64 KiB",
	"older-draft":                     "the schema search draws what drafts read apart (keywords beside a `$ref`, `$anchor`) in one case of a few hundred: caught with 1,000 checks (after 240), not 100",
	"schema-not-checked":              "the properties draw schemas the reference compiles: none is broken",
	"json-nonfinite":                  "only the schema search writes a `NaN` into JSON text sent for an array (one of its cases in 200): caught with 1,000 checks (after 446), not 100",
	"json-raw-surrogates":             "JSON text is drawn by writing a value, which escapes a lone surrogate (`\\ud800`): no drawn JSON text holds one raw",
	"json-trailing-commas":            "only the schema search sends JSON text with a trailing comma where an array or object is declared (one of its cases in 120): none in 1,000 checks",
	"entities-case-insensitive":       "names are drawn from HTML's table as it spells them; only a random name can spell one in another case: none in 1,000 checks",
	"ref-items-dropped":               "only a `$ref` to an array whose `items` declare an array or object, with an element sent as JSON text, shows it: drawn too rarely (none in 1,000 checks)",
	"ignores-dynamic-ref":             "the schema search draws `$dynamicRef` only in its trees, where it resolves as the anchor does, with JSON text sent under it rarely: none in 1,000 checks",
	"first-allof-only":                "an `allOf` is drawn with the declaration in its first branch, but for one schema of wrong-shape-passes: caught with 1,000 checks, not 100",
	"ignores-oneof":                   "the properties' `oneOf` is a union of object and string, where a string is kept whether it is read or not; the schema search's shows it in one case of 1,000: caught with 1,000 checks (after 267), not 100",
	"ignores-prefixitems":             "only the schema search draws `prefixItems`, with JSON text under an entry rarely: caught with 1,000 checks (after 567), not 100",
	"prefixitems-2020-12-only":        "as ignores-prefixitems: caught with 1,000 checks (after 567), not 100",
	"ref-siblings-dropped":            "only the schema search puts a keyword that declares beside a `$ref` (the target's type, one time in eight, from 2019-09 on): caught with 1,000 checks (after 679), not 100",
	"drafts-ignored":                  "only the schema search names a draft in `$schema`, and what the drafts read apart shows rarely: caught with 1,000 checks (after 535), not 100",
	"embedded-drafts-ignored":         "the schema search draws embedded resources that name their own draft, but none with a keyword that draft reads apart: none in 1,000 checks",
	"allof-as-union":                  "the allOf the old generators draw shows it at seed 1 only by chance of the stream: with one case in four drawn from the schema search (issue 36), whose allOf branches never exclude each other's container, none of the 100 checks draws `allOf` of two types that do not meet, or a branch that narrows a type list",
	"union-ref-branches-skipped":      "a `$ref` is a branch of an `anyOf` in the schema search's unions one branch in six, with JSON text sent under it rarely: caught with 1,000 checks (after 144), not 100",
	"allof-members-first":             "the properties' `allOf` wraps one schema beside a description; the schema search declares a member's type in an `allOf` branch beside its own `properties` one object in six, with JSON text sent there rarely: none in 1,000 checks",
	"types-added":                     "a `type` beside an `anyOf` or `oneOf` that admits a string, or an `allOf` whose branches name different containers, with JSON text sent there, is drawn rarely",
	"inherited-member-copied":         "only the schema search declares a member named after a method of `Object.prototype` (`constructor`, `toString`) and leaves it out: caught with 1,000 checks (after 324), not 100",
	"unions-merged-into-allof":        "the schema search draws an `allOf` branch that is only an `anyOf` of a container's type and null (one `allOf` in four), with the container's JSON text sent there rarely: none in 1,000 checks; the corpus's `an-anyof-inside-allof-intersects-with-the-other-branch` catches it",
	"union-untyped-branches-skipped":  "only the schema search's `anyOf` has a branch that declares no type (one branch in four), beside one that declares an array or object, with JSON text sent there: caught with 1,000 checks (after 431), not 100",
	"ref-pointer-tilde-order":         "the schema search names a def `x~1` (its pointer `x~01`) beside a def `x/` that declares nothing, one def in twelve: caught with 1,000 checks (after 588), not 100",
	"ref-siblings-dropped-in-2019-09": "only the schema search puts a keyword that declares beside a `$ref` (the target's type, one `$ref` in four from 2019-09 on), and names 2019-09 in one document of ten: none in 1,000 checks",
	"ref-siblings-read-in-draft-7":    "the properties' schemas name no `$schema`, and the schema search's draft-07 schemas put no keyword beside a `$ref` that declares what its target does not (none in 1,000 checks); the corpus's `in-draft-7-keywords-beside-ref-are-ignored-its-type-does-not` catches it",
	"unevaluated-as-additional":       "`unevaluatedProperties` is drawn by the schema search beside `properties`, but a member it alone would declare is sent as JSON text of the shape it names rarely: caught with 1,000 checks (after 716), not 100",
	"ref-pointer-only":                "an anchor or an `$id` is drawn by the schema search as the way to a `$ref`'s target where JSON text is sent under it, one case in a few hundred: none in 1,000 checks",
	"decoded-duplicates-collapsed":    "the JSON text drawn holds distinct keys in every object (the schema search's too: see unreached)",
	"duplicates-collapsed":            "the arguments drawn hold distinct keys at every level (see unreached)",
	"ref-pointer-as-written":          "the same as ref-pointer-only: caught with 1,000 checks (after 115), not 100",
	"additional-over-patterns":        "`additionalProperties` is drawn by the properties beside a pattern only as `{\"type\":\"string\"}`: read over the pattern, it shows only where a member the pattern matches is sent as JSON text the pattern's schema decodes: caught with 1,000 checks (after 106), not 100",
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
