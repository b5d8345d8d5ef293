package properties

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
)

// drawnDigests pin what the generators draw: a check's report names its
// cases by seed (--seed, --checks), so a change to how a case is drawn is
// a change to every report, never a side effect of making drawing faster.
// Each digest covers 256 cases of every property and 256 of Cases, for
// the reference (every option drawn) and for a configured implementation.
var drawnDigests = map[string]string{
	"reference":  "f04ec887f02a3307ccb752b7be59928dd2659420833e970b399845c65f9a81aa",
	"configured": "98a800ae3da0752472d9c1a5a730176449303ad5ed7b6d20335ddc129ef18677",
}

func TestDrawnCasesUnchanged(t *testing.T) {
	for name, im := range map[string]impl.Impl{
		"reference":  impl.Reference,
		"configured": impl.Configure(impl.Options{MaxPasses: 1, Profile: normalize.Attribute, Depth: normalize.TopLevel}),
	} {
		h := sha256.New()
		for _, p := range All() {
			if o, ok := impl.OptionsOf(im); ok && !p.Applies(o) {
				continue
			}
			for i := range 256 {
				c := p.Draw(CaseSeed(1, p.ID, i), im)
				writeCase(h, c.Case)
				fmt.Fprintf(h, "%v\x00%s\x00", c.Focus, c.Decl)
			}
		}
		gen := Cases(im)
		for i := range 256 {
			writeCase(h, gen.Example(i))
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != drawnDigests[name] {
			t.Errorf("%s: the cases drawn changed: digest %s, want %s", name, got, drawnDigests[name])
		}
	}
}

func writeCase(h hash.Hash, c impl.Case) {
	fmt.Fprintf(h, "%q\x00%q\x00%+v\x00", c.Schema, c.Args, c.Options)
}

// TestPlacedFocus: for every case a property about one position draws,
// the string placed at its focus is what reading the case finds there
// (focus trusts it for a case as drawn), and a case changed in any way is
// read again.
func TestPlacedFocus(t *testing.T) {
	ims := []impl.Impl{impl.Reference, impl.Configure(impl.Options{Depth: normalize.TopLevel}), impl.Configure(impl.Options{MaxPasses: 1, Profile: normalize.Attribute})}
	placed := 0
	for _, p := range All() {
		for _, im := range ims {
			for i := range 2000 {
				c := p.Draw(CaseSeed(1, p.ID, i), im)
				if c.placed == nil {
					continue
				}
				placed++
				var got string
				func() {
					defer func() {
						if x := recover(); x != nil {
							t.Fatalf("%s, case %d: reading the drawn case: %v", p.ID, i, x)
						}
					}()
					got = focusParsed(c, false)
				}()
				if got != c.placed.str || focus(c) != got {
					t.Fatalf("%s, case %d: placed %q, read %q", p.ID, i, c.placed.str, got)
				}
			}
		}
	}
	if placed == 0 {
		t.Fatal("no case was placed")
	}
	c := placeCase(nil, impl.Options{Depth: normalize.TopLevel}, `{"type":"object"}`, `{"a":1}`)
	for name, change := range map[string]func(c *Case){
		"args":   func(c *Case) { c.Args = []byte(`{"other":"x","p":"other"}`) },
		"schema": func(c *Case) { c.Schema = []byte(`{"type":"object","properties":{"p":{"type":"array"}}}`) },
		"shrunk": func(c *Case) { c.Args, c.shrunk = []byte(`{"p":"shrunk"}`), true },
	} {
		d := c
		change(&d)
		func() {
			defer func() { recover() }() // moot: what a reading of the changed case finds
			if got := focus(d); got == c.placed.str {
				t.Errorf("%s changed: focus still gives the placed %q", name, got)
			}
		}()
	}
}
