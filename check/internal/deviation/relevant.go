package deviation

import (
	"bytes"
	"strings"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// Features are what a case holds that a deviation needs in order to
// change anything: a deviation whose needs a case lacks gives the
// reference's result on it (TestRelevant), and is not run. They are read
// once per case, from its text and tree.
type Features struct {
	amp    bool // an '&' in a string or key, as it is or escaped
	json   bool // a string that may be JSON text once references are decoded
	str    bool // a string value that is not empty
	anyStr bool // a string value, empty or not
	space  bool // a string with whitespace at an end, or one that may hold it once decoded
	digits bool // a digit anywhere in the arguments
	proto  bool // a member named __proto__
	null   bool // a member whose value is null
	long   bool // a string longer than 64 KiB (json-length-limit)
	// inherited: a name of a member every JavaScript object inherits
	// (constructor, toString, ...) in the schema, as a quoted string
	inherited bool
	keywords  map[string]bool
}

// FeaturesOf reads the features of c.
func FeaturesOf(c impl.Case) *Features {
	f := &Features{keywords: map[string]bool{}}
	args := c.Args
	f.amp = bytes.IndexByte(args, '&') >= 0 || bytes.Contains(args, []byte(`\u0026`))
	f.digits = bytes.ContainsAny(args, "0123456789")
	f.proto = bytes.Contains(args, []byte("__proto__")) || bytes.Contains(args, []byte(`\u005f`))
	for _, n := range InheritedNames {
		f.inherited = f.inherited || bytes.Contains(c.Schema, []byte(`"`+n+`"`))
	}
	if root, err := jsonvalue.Parse(args); err == nil {
		f.walk(root)
		f.null = f.null || f.json // a null in a decoded value
	} else {
		f.json, f.str, f.anyStr, f.space, f.null, f.long = true, true, true, true, true, true // what it holds is the reference's to judge
	}
	if doc, err := jsonvalue.Parse(c.Schema); err == nil {
		everySchema(func(obj *jsonvalue.Value, _ bool) {
			for _, m := range obj.Members {
				f.keywords[m.Key] = true
				if m.Key == "type" {
					for _, t := range append([]*jsonvalue.Value{m.Value}, m.Value.Elems...) {
						if t.Kind == jsonvalue.String {
							f.keywords["type:"+t.Str] = true
						}
					}
				}
			}
		})(doc)
	}
	return f
}

func (f *Features) walk(v *jsonvalue.Value) {
	switch v.Kind {
	case jsonvalue.String:
		t := strings.TrimLeft(v.Str, " \t\r\n")
		f.json = f.json || t != "" && (t[0] == '[' || t[0] == '{') || strings.Contains(v.Str, "&")
		f.str = f.str || v.Str != ""
		f.anyStr = true
		f.long = f.long || len(v.Str) > 65536 // UTF-8 bytes: at least its UTF-16 code units
		// A string that may be JSON text may hold whitespace written as an
		// escape (`"\u2028"`), that only its decoded value shows.
		f.space = f.space || f.json || strings.TrimFunc(v.Str, trimmed) != v.Str
	case jsonvalue.Array:
		for _, e := range v.Elems {
			f.walk(e)
		}
	case jsonvalue.Object:
		for _, m := range v.Members {
			f.null = f.null || m.Value.Kind == jsonvalue.Null
			f.walk(m.Value)
		}
	}
}

// A need says whether a case has what a deviation needs to change
// anything.
type need func(f *Features) bool

var (
	// needsAmp: a reference to decode (the entity repair's deviations).
	needsAmp need = func(f *Features) bool { return f.amp }
	// needsRepair: a string the JSON repair may decode, as sent or once
	// its references are decoded.
	needsRepair need = func(f *Features) bool { return f.json }
	// needsString: any string to decode.
	needsString need = func(f *Features) bool { return f.str }
	always      need = func(*Features) bool { return true }
	// scalarTypes: a scalar type declared, that a value may be converted to.
	scalarTypes need = func(f *Features) bool {
		return f.keywords["type:string"] || f.keywords["type:number"] || f.keywords["type:integer"] || f.keywords["type:boolean"] || f.keywords["type:null"]
	}
)

// needsKeyword is a schema that holds one of the keywords (or, for
// "type:NAME", a type that names NAME), and a string to decode.
func needsKeyword(kws ...string) need {
	return func(f *Features) bool {
		if !f.json {
			return false
		}
		for _, k := range kws {
			if f.keywords[k] {
				return true
			}
		}
		return false
	}
}

// Relevant reports whether d may change anything on a case of features
// f: false means it gives the reference's result.
func (d *Deviation) Relevant(f *Features) bool { return d.needs == nil || d.needs(f) }
