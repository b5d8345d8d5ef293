// Package mutants is a set of deliberately broken RT-TOOL-8 normalizers,
// for checking that toolnorm's properties catch real bugs. Each mutant is
// the reference with exactly one bug of the kind real implementations
// have. The bug is real (it changes results on realistic inputs) and
// isolated: on inputs that do not trigger it, the mutant gives the
// reference's result, so a property that fails on a mutant fails because
// of its bug.
//
// Most mutants wrap the reference (impl.Reference): they change the
// options, rewrite the schema before it, or rewrite its output. The
// decoder and ordering mutants run the reference's algorithm again over a
// JSON tree with one part swapped (see normalizer), asking the reference
// what the schema declares.
package mutants

import (
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/normalize"
)

// Mutant is one broken normalizer.
type Mutant struct {
	Name string    // a short kebab-case id, named by the bug
	Bug  string    // one line: what it does wrong
	Impl impl.Impl // the normalizer
}

func mutant(name, bug string, f normalizeFunc) Mutant {
	return Mutant{Name: name, Bug: bug, Impl: impl.Func("mutant "+name, f)}
}

// All returns every mutant, a new set on each call.
func All() []Mutant {
	return []Mutant{
		// Rule 2 and 3: the JSON repair.
		mutant("decodes-string-params",
			`ignores "string" in a declared type: JSON-decodes a parameter declared ["string","array"] (or anyOf string|array) that holds a stringified list`,
			withSchema(dropStringType)),
		mutant("substitutes-wrong-shape",
			"where array or object is declared, substitutes whatever the string parses to: an object for an array parameter",
			(&normalizer{anyShape: true}).Normalize),
		mutant("top-level-only",
			"the JSON repair fires only for top-level parameters, not in items, nested properties or decoded values",
			(&normalizer{topLevelOnly: true}).Normalize),
		mutant("rejects-padded-json",
			`the JSON repair refuses JSON with whitespace around it: " [1, 2] " stays a string`,
			(&normalizer{unpadded: true}).Normalize),

		// Rule 4: the entity repair.
		mutant("one-pass",
			"decodes references in one pass, not to the fixpoint, when no pass bound is given: &amp;amp; gives &amp;",
			withOptions(func(o *impl.Options) {
				if o.MaxPasses == 0 {
					o.MaxPasses = 1
				}
			})),
		mutant("ignores-max-passes",
			"ignores the pass bound: decodes to the fixpoint even with max_passes set",
			withOptions(func(o *impl.Options) { o.MaxPasses = 0 })),
		mutant("ignores-profile",
			"ignores the attribute profile: decodes as in text content, so ?a=1&region=eu gives ?a=1®ion=eu",
			withOptions(func(o *impl.Options) { o.Profile = normalize.Text })),
		mutant("needs-semicolon",
			"references without their trailing ';' are not decoded: &amp and &#38 stay, &amp; decodes",
			(&normalizer{pass: scan(semicolonOnly)}).Normalize),
		mutant("stdlib-html",
			"decodes with Go's html.UnescapeString: &#4294967356; gives '<', &#9 and &nGt; stay, &#x; gives U+FFFD",
			(&normalizer{pass: stdlib}).Normalize),
		mutant("python-unescape",
			"decodes as Python's html.unescape: drops &#1;, &#x7F;, &#xFFFF; and the like, and fails on a decimal reference of more than 4,300 digits",
			(&normalizer{pass: scan(python)}).Normalize),

		// docs/readings.md section 6: the order.
		mutant("entities-first",
			`decodes references before the JSON repair and tries it once: "[\"&quot;\"]" for an array stays a string`,
			(&normalizer{entitiesFirst: true}).Normalize),
		mutant("no-json-after-entities",
			"does not try the JSON repair again on decoded text: [&quot;a&quot;] for an array becomes the string [\"a\"]",
			(&normalizer{noRedecode: true}).Normalize),

		// docs/readings.md section 4: what the schema declares.
		mutant("ignores-ref",
			"does not follow $ref: a position whose type comes only through $ref is unknown",
			withSchema(dropMembers("$ref", jsonvalue.String))),
		mutant("ignores-anyof",
			"ignores anyOf and oneOf: their branches contribute nothing",
			withSchema(neutralizeAnyOf)),
		mutant("ignores-pattern-properties",
			"ignores patternProperties: a member matching a pattern gets additionalProperties, or nothing",
			withSchema(dropMembers("patternProperties", jsonvalue.Object))),

		// Rule 5 and docs/readings.md section 7: nothing else changes.
		mutant("decodes-keys",
			"also decodes references in object keys",
			withOutput(decodeKeys)),
		mutant("float64-numbers",
			"numbers go through float64: 12345678901234567890 becomes 12345678901234567000, 1e400 fails",
			withOutput(viaFloat64)),
		mutant("trims-whitespace",
			"trims leading and trailing whitespace of every string it outputs",
			withOutput(trimStrings)),
		mutant("reorders-members",
			"outputs object members sorted by key, duplicates collapsed to the last, as a map does",
			withOutput(sortMembers)),
		mutant("lone-surrogate-to-fffd",
			`a lone surrogate escape comes out as U+FFFD: "\ud800" becomes "\ufffd"`,
			withOutput(surrogatesToFFFD)),
	}
}
