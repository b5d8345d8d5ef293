package normalize

import (
	"strings"
	"unsafe"

	"github.com/toolnorm/toolnorm/internal/entity"
)

// DecodeEntities returns s with its HTML character references decoded in
// the text profile, pass after pass, until it stops changing: the entity
// repair of RT-TOOL-8 on one string. "Ember &amp;amp; Oak" becomes
// "Ember & Oak". A string without '&' is returned as it is.
//
// The result equals iterating golang.org/x/net/html's UnescapeString until
// nothing changes, but takes time linear in len(s) however many passes
// that needs.
func DecodeEntities(s string) string {
	out, _ := DecodeEntitiesWith(s)
	return out
}

// Decoding says what [DecodeEntitiesWith] did.
type Decoding struct {
	// Passes is the number of passes that changed the string.
	Passes int
	// Fixpoint is false when the pass bound stopped the decoding while
	// another pass would still have changed the string.
	Fixpoint bool
}

// DecodeEntitiesWith is [DecodeEntities] with options: [WithProfile] and
// [WithMaxPasses] apply; other options are ignored.
func DecodeEntitiesWith(s string, opts ...Option) (string, Decoding) {
	if strings.IndexByte(s, '&') < 0 {
		return s, Decoding{Fixpoint: true}
	}
	cfg := newConfig(opts)
	// No copies of s or of the result, which for a long text cost as much
	// as decoding it: entity.Decode only reads its argument, and the
	// buffer it returns, when something changed, is new and never written
	// again.
	out, res := entity.Decode(unsafe.Slice(unsafe.StringData(s), len(s)), cfg.profile, cfg.maxPasses)
	if res.Passes == 0 {
		return s, Decoding{Fixpoint: true}
	}
	return unsafe.String(unsafe.SliceData(out), len(out)), Decoding{Passes: res.Passes, Fixpoint: res.Fixpoint}
}
