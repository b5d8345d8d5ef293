package deviation_test

import (
	"context"
	"slices"
	"testing"

	"github.com/toolnorm/toolnorm/check/internal/deviation"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/schemagen"
)

// reachDraws is how many cases of the schema search TestSearchReach
// draws: seeds 0 to reachDraws-1.
const reachDraws = 2000

// unreached are the deviations on which none of the schema search's first
// reachDraws cases (internal/schemagen, as the fuzzer draws them: its own
// pool of texts, the default options) differs from the reference, each
// with why. TestSearchReach fails when one of them differs on a case
// (take it out) or when a deviation not in it differs on none: a change of
// the generators that loses a behaviour, or a behaviour they never reach.
// TestTeeth's uncaught says the same of the properties. Most deviations
// differ on a few cases in a thousand (a behaviour shows only where JSON
// text or a reference is sent at the place it reads): a change of what is
// drawn may move one across the line, which is what the table is for.
var unreached = map[string]string{
	"schema-not-checked":              "the search draws only schemas the reference compiles (TestSearchReach checks it)",
	"json-length-limit":               "no string drawn is longer than 64 KiB",
	"json-raw-surrogates":             "JSON text is drawn by writing a value, which escapes a lone surrogate: none is raw",
	"json-lone-surrogate-refused":     "the search's texts hold no lone surrogate (the properties' text generator draws them)",
	"lone-surrogate-replaced":         "as json-lone-surrogate-refused",
	"entities-profile-ignored":        "the search's cases take the default options: the text profile (the properties draw the options)",
	"entities-pass-bound-ignored":     "the search's cases take the default options: no pass bound",
	"embedded-drafts-ignored":         "no embedded resource drawn holds a keyword its own draft reads apart from the document's",
	"duplicates-collapsed":            "no object drawn holds a key twice: what a language's map does to one is the adapter's plumbing more often than the normalizer's, and the corpus's vectors show it once, where drawn cases would break every property that compares members",
	"decoded-duplicates-collapsed":    "as duplicates-collapsed, for JSON text sent in a string",
	"ref-siblings-dropped-in-2019-09": "a keyword that declares is written beside a `$ref` one `$ref` in four from 2019-09 on, in a 2019-09 document one in ten, and shows only with JSON text sent there",
	"json-array-for-object":           "shows only where a string holding a JSON array is sent where an object is declared: 4 in 3,000 cases",
}

// TestSearchReach draws the schema search's first cases and runs each
// deviation of the catalogue on them: every deviation outside unreached
// must differ from the reference on one of them, and the reference must
// compile every drawn schema.
func TestSearchReach(t *testing.T) {
	ctx := context.Background()
	cases := make([]impl.Case, reachDraws)
	for seed := range cases {
		s, a, _ := schemagen.DrawTrees(uint64(seed), schemagen.Options{})
		cases[seed] = impl.Case{Schema: s.Append(nil), Args: a.Append(nil)}
	}
	want := impl.Run(ctx, impl.Reference, cases)
	for i, w := range want {
		if w.Error == impl.ErrInvalidSchema {
			t.Errorf("seed %d draws a schema the reference does not compile: %s", i, cases[i].Schema)
		}
	}
	for id := range unreached {
		if deviation.ByID(id) == nil {
			t.Errorf("unreached names %s, which is no deviation of the catalogue", id)
		}
	}
	for _, d := range deviation.Catalogue() {
		got := impl.Run(ctx, d.Impl(), cases)
		var differ []int
		for i := range cases {
			if impl.Compare(got[i], want[i]).Diff != "" {
				differ = append(differ, i)
			}
		}
		why, known := unreached[d.ID]
		switch {
		case len(differ) == 0 && !known:
			t.Errorf("%s (%s) differs from the reference on none of the search's first %d cases", d.ID, d.Title, reachDraws)
		case len(differ) > 0 && known:
			t.Errorf("%s differs on %d of the search's cases (seed %d first): take it out of unreached (%s)", d.ID, len(differ), differ[0], why)
		case len(differ) > 0:
			t.Logf("%-36s %3d cases, seed %d first", d.ID, len(differ), slices.Min(differ))
		}
	}
}
