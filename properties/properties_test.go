package properties

import (
	"testing"

	"github.com/toolnorm/toolnorm/impl"
)

// TestReference runs every property on the reference normalizer: it must
// hold them all.
func TestReference(t *testing.T) {
	for _, p := range All() {
		t.Run(p.ID, func(t *testing.T) { p.Check(t, impl.Reference) })
	}
}
