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
	"reference":  "38ef978168fb49a885070c505753a831224b93c949e4904f004fc3580b65ffaa",
	"configured": "30f831156157149d27b32294ef7ffeb66edfa287a39417b71fecb56e7b6b65ad",
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
