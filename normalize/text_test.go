package normalize

import (
	"encoding"
	"fmt"
	"testing"
)

// The readings' text forms are what vectors, declarations and flags carry:
// a vector's id hashes them, so they must not drift.
func TestReadingText(t *testing.T) {
	type textValue interface {
		fmt.Stringer
		encoding.TextMarshaler
	}
	for _, tt := range []struct {
		v          textValue
		text, str  string
		marshalErr bool
	}{
		{Text, "text", "text", false},
		{Attribute, "attribute", "attribute", false},
		{Profile(2), "", "Profile(2)", true},
		{AllRepairs, "", "json+entities", false},
		{JSONRepair, "json", "json", false},
		{EntityRepair, "entities", "entities", false},
		{Repairs(3), "", "Repairs(3)", true},
		{EveryDepth, "all", "all", false},
		{TopLevel, "top", "top", false},
		{Depth(2), "", "Depth(2)", true},
	} {
		if got := tt.v.String(); got != tt.str {
			t.Errorf("%#v.String() = %q, want %q", tt.v, got, tt.str)
		}
		b, err := tt.v.MarshalText()
		if tt.marshalErr != (err != nil) || string(b) != tt.text {
			t.Errorf("%#v.MarshalText() = %q, %v; want %q, error %t", tt.v, b, err, tt.text, tt.marshalErr)
		}
	}
}

func TestReadingUnmarshalText(t *testing.T) {
	for _, tt := range []struct {
		in   string
		into interface {
			encoding.TextUnmarshaler
			fmt.Stringer
		}
		want string // the String of the value read, or "error"
	}{
		{"", new(Profile), "text"},
		{"text", new(Profile), "text"},
		{"attribute", new(Profile), "attribute"},
		{"Attribute", new(Profile), "error"},
		{"", new(Repairs), "json+entities"},
		{"json+entities", new(Repairs), "json+entities"},
		{"json", new(Repairs), "json"},
		{"entities", new(Repairs), "entities"},
		{"none", new(Repairs), "error"},
		{"", new(Depth), "all"},
		{"all", new(Depth), "all"},
		{"top", new(Depth), "top"},
		{"1", new(Depth), "error"},
	} {
		got := "error"
		if err := tt.into.UnmarshalText([]byte(tt.in)); err == nil {
			got = tt.into.String()
		}
		if got != tt.want {
			t.Errorf("%T.UnmarshalText(%q): %s, want %s", tt.into, tt.in, got, tt.want)
		}
	}
}

func TestRepairsReadings(t *testing.T) {
	for _, tt := range []struct {
		r              Repairs
		json, entities bool
		missing        string
	}{
		{AllRepairs, true, true, ""},
		{JSONRepair, true, false, "the entity repair (rule/4)"},
		{EntityRepair, false, true, "the JSON repair (rule/2, rule/3)"},
	} {
		if tt.r.JSON() != tt.json || tt.r.Entities() != tt.entities || tt.r.Missing() != tt.missing {
			t.Errorf("%v: JSON %t, Entities %t, Missing %q; want %t, %t, %q", tt.r, tt.r.JSON(), tt.r.Entities(), tt.r.Missing(), tt.json, tt.entities, tt.missing)
		}
	}
}
