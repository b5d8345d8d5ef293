package diagnose

import (
	"slices"
	"strings"
)

// Merge is the diagnosis of the findings of one class, ds (at least one,
// in any order): the first's, with the title of them all. Where the class
// leaves a detail open (the kind of error expected, the keyword not
// followed, the conversion, the loss), the title names every finding's
// detail, each once, in one order, so that it claims what each finding
// shows and neither the order the findings came in nor the seed changes
// it. Where a finding has no detail, its diagnosis, which names none, is
// the one of them all.
func Merge(ds []Diagnosis) Diagnosis {
	out := ds[0]
	title, ok := titlers[out.Class]
	if !ok {
		return out
	}
	var details []string
	for _, d := range ds {
		if d.Detail == "" {
			return d
		}
		if !slices.Contains(details, d.Detail) {
			details = append(details, d.Detail)
		}
	}
	details = OrderDetails(details)
	out.Detail, out.Title = strings.Join(details, ", "), title(out.Class, details)
	return out
}

// titlers are the titles of the classes whose findings differ in a
// detail, by class: each names the details it is given.
var titlers = map[string]func(class string, details []string) string{
	"no-error":                      func(_ string, ds []string) string { return NoErrorTitle(ds) },
	"error-for-valid-input/$schema": func(_ string, ds []string) string { return SchemaErrorTitle(ds) },
	"error-for-valid-input/$ref":    func(_ string, ds []string) string { return RefErrorTitle(ds) },
	nonFiniteClass:                  func(_ string, ds []string) string { return NonFiniteTitle(ds) },
	"coerced":                       CoercedTitle,
	"coerced-in-decoded":            CoercedTitle,
	"decoded-json-lossy":            LossyTitle,
	"artefact/lossy-json":           LossyTitle,
	"decoded-json-lossy/where-kept": whereKeptTitle,
	"wrong-shape":                   func(_ string, ds []string) string { return WrongShapeTitle(ds) },
	"object-as-array":               func(_ string, ds []string) string { return AsArrayTitle(ds) },
	"decode-missed/keyword":         func(_ string, ds []string) string { return KeywordTitle(Routes(ds)) },
	IgnoredClass:                    func(_ string, ds []string) string { return IgnoredTitle(Routes(ds)) },
	"decoded-not-json":              func(_ string, ds []string) string { return TrimmedTitle(ds) },
	"made-from-not-json":            func(_ string, ds []string) string { return NotJSONTitle(ds) },
	PrototypeErrorClass:             func(_ string, ds []string) string { return PrototypeErrorTitle(ds) },
}

// PrototypeErrorClass is the class of an error for arguments with a
// member, sent or declared, named as a member every JavaScript object
// inherits from `Object.prototype`, which under another name are
// answered as the rule says (a rename of the counterexample shows it):
// its detail is the name.
const PrototypeErrorClass = "member-name/prototype/error"

// PrototypeErrorTitle is the title of PrototypeErrorClass, naming the
// names shown.
func PrototypeErrorTitle(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return "An error for arguments with a member, sent or declared, named as one of `Object.prototype`'s (" + strings.Join(q, ", ") + "), which under another name are answered as the rule says"
}

// whereKeptTitle is the title of JSON text decoded where the rule keeps
// the string and read lossily, with the losses whats.
func whereKeptTitle(_ string, whats []string) string {
	t := "JSON text is decoded where the rule keeps the string, and read lossily"
	var q []string
	for _, w := range whats {
		q = append(q, lossyWhat[w])
	}
	return t + " (" + strings.Join(q, ", ") + ")"
}
