package diagnose

import (
	"net/url"
	"strings"

	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// The forms of a schema's `$ref`s, the detail of an error under `$ref`
// (class error-for-valid-input/$ref): what a finding's schema shows of how
// its references name their targets.
const (
	refPointer    = "pointer"     // "#/$defs/x"
	refAnchor     = "anchor"      // "#name"
	refID         = "id"          // the URI of a resource's `$id`
	refRelativeID = "relative-id" // ... whose `$id` is relative to that of an embedded resource it sits in
)

// refForm is the form every `$ref` of schema takes ("" when they take
// several, none has one of these, or the text does not parse): a JSON
// Pointer, a plain-name anchor, the URI of a resource's `$id`, or the URI
// of a resource whose `$id` is written relative to that of an embedded
// resource (one below the document's root) it sits in: resolved against
// that one's (RFC 3986), where resolving it against the document's gives
// another URI.
func refForm(schema []byte) string {
	v, err := jsonvalue.Parse(schema)
	if err != nil {
		return ""
	}
	type ref struct{ value, base string }
	var refs []ref
	nested := map[string]bool{} // the URIs of resources with an $id relative to an embedded one's
	var walk func(v *jsonvalue.Value, base string, embedded bool, depth int)
	walk = func(v *jsonvalue.Value, base string, embedded bool, depth int) {
		if depth > jsonvalue.MaxDepth {
			return
		}
		switch v.Kind {
		case jsonvalue.Array:
			for _, e := range v.Elems {
				walk(e, base, embedded, depth+1)
			}
		case jsonvalue.Object:
			if id := v.Member("$id"); id != nil && id.Kind == jsonvalue.String && id.Str != "" && id.Str[0] != '#' {
				resolved := resolveURI(base, id.Str)
				if u, err := url.Parse(id.Str); err == nil && !u.IsAbs() && embedded {
					nested[resolved] = true
				}
				base, embedded = resolved, depth > 0
			}
			if r := v.Member("$ref"); r != nil && r.Kind == jsonvalue.String {
				refs = append(refs, ref{r.Str, base})
			}
			for _, m := range v.Members {
				if m.Key != "enum" && m.Key != "const" && m.Key != "default" && m.Key != "examples" {
					walk(m.Value, base, embedded, depth+1)
				}
			}
		}
	}
	walk(v, "", false, 0)
	form := ""
	for _, r := range refs {
		var f string
		switch {
		case strings.HasPrefix(r.value, "#/"):
			f = refPointer
		case r.value == "#":
			return "" // the root: a cycle, a class of its own
		case strings.HasPrefix(r.value, "#"):
			f = refAnchor
		default:
			target, _, _ := strings.Cut(resolveURI(r.base, r.value), "#")
			f = refID
			if nested[target] {
				f = refRelativeID
			}
		}
		if form != "" && f != form {
			return ""
		}
		form = f
	}
	return form
}

// resolveURI resolves ref against base (RFC 3986), or is ref as written
// when either does not parse or there is no base.
func resolveURI(base, ref string) string {
	r, err := url.Parse(ref)
	if err != nil || base == "" {
		return ref
	}
	b, err := url.Parse(base)
	if err != nil {
		return ref
	}
	return b.ResolveReference(r).String()
}

// refForms are the forms' phrases in titles, in their order.
var refForms = []struct{ form, phrase string }{
	{refPointer, "a JSON Pointer (`#/...`)"},
	{refAnchor, "a plain-name anchor (`#name`)"},
	{refID, "the URI of a resource's `$id`"},
	{refRelativeID, "the URI of a resource whose `$id` is relative to that of an embedded resource it sits in"},
}

// RefErrorTitle is the title of an error under `$ref` whose findings'
// references take the forms forms.
func RefErrorTitle(forms []string) string {
	var q []string
	for _, f := range refForms {
		for _, g := range forms {
			if g == f.form {
				q = append(q, f.phrase)
			}
		}
	}
	return "An error for arguments under a schema whose `$ref` is " + strings.Join(q, " or ")
}
