package deviation

import (
	"bytes"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/internal/schemaview"
)

// unionsInOrder reads every anyOf and oneOf as a normalizer does that
// tries the branches in order, each on the value alone: at each position
// of the arguments as sent where a union applies (the outermost), the
// value becomes the repair of the first branch whose repair fits that
// branch, whole, and stays as sent where none does. The rest of the
// output is the reference's.
func unionsInOrder(x *stage) error {
	doc, err := jsonvalue.Parse(x.schema)
	if err != nil || doc.Kind != jsonvalue.Object {
		return nil
	}
	view := schemaview.New(doc)
	var walk func(v *jsonvalue.Value, path []schemaview.Step)
	walk = func(v *jsonvalue.Value, path []schemaview.Step) {
		if bs := unionAt(view, path); bs != nil {
			chosen := v
			for _, b := range bs {
				if r, ok := branchRepair(x, doc, b, v); ok {
					chosen = r
					break
				}
			}
			if o := atSteps(x.out, path); o != nil {
				if c, err := jsonvalue.Parse(chosen.Append(nil)); err == nil {
					*o = *c
				}
			}
			return
		}
		for i, e := range v.Elems {
			walk(e, append(path[:len(path):len(path)], schemaview.Element(i)))
		}
		for _, m := range v.Members {
			walk(m.Value, append(path[:len(path):len(path)], schemaview.Member(m.Key)))
		}
	}
	walk(x.args, nil)
	return nil
}

// unionAt returns the branches of the first anyOf (or, where none, oneOf)
// that applies at path, or nil.
func unionAt(view *schemaview.View, path []schemaview.Step) []*jsonvalue.Value {
	rs := view.At(path)
	for _, k := range []string{"anyOf", "oneOf"} {
		for _, r := range rs {
			if u := r.Schema.Member(k); u != nil && u.Kind == jsonvalue.Array && len(u.Elems) > 0 {
				return u.Elems
			}
		}
	}
	return nil
}

// branchRepair repairs v as the branch b alone declares it, in a document
// that keeps the definitions of doc, and reports whether the repair fits
// b.
func branchRepair(x *stage, doc, b, v *jsonvalue.Value) (*jsonvalue.Value, bool) {
	alone := &jsonvalue.Value{Kind: jsonvalue.Object}
	for _, k := range []string{"$schema", "$defs", "definitions"} {
		if d := doc.Member(k); d != nil {
			alone.Members = append(alone.Members, jsonvalue.Member{Key: k, Value: d})
		}
	}
	props := &jsonvalue.Value{Kind: jsonvalue.Object, Members: []jsonvalue.Member{{Key: "v", Value: b}}}
	alone.Members = append(alone.Members, jsonvalue.Member{Key: "type", Value: &jsonvalue.Value{Kind: jsonvalue.String, Str: "object"}},
		jsonvalue.Member{Key: "properties", Value: props})
	schema := alone.Append(nil)
	args := (&jsonvalue.Value{Kind: jsonvalue.Object, Members: []jsonvalue.Member{{Key: "v", Value: v}}}).Append(nil)
	r := reference(x.ctx, impl.Case{Schema: schema, Args: args, Options: x.o})
	if r.Error != "" || r.Failure != nil {
		return nil, false
	}
	s := compiled(schema)
	if s == nil {
		return nil, false
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(r.Output))
	if err != nil || s.Validate(inst) != nil {
		return nil, false
	}
	out, err := jsonvalue.Parse(r.Output)
	if err != nil || out.Member("v") == nil {
		return nil, false
	}
	return out.Member("v"), true
}

// atSteps returns the value at path in v, or nil.
func atSteps(v *jsonvalue.Value, path []schemaview.Step) *jsonvalue.Value {
	for _, st := range path {
		switch {
		case st.Index >= 0 && v.Kind == jsonvalue.Array && st.Index < len(v.Elems):
			v = v.Elems[st.Index]
		case st.Index < 0 && v.Kind == jsonvalue.Object:
			if v = v.Member(st.Key); v == nil {
				return nil
			}
		default:
			return nil
		}
	}
	return v
}
