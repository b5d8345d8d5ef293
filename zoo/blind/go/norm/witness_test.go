package norm

import (
	"encoding/json"
	"os"
	"testing"
)

type witness struct {
	Switch    string          `json:"switch"`
	Schema    json.RawMessage `json:"schema"`
	Arguments json.RawMessage `json:"arguments"`
	Reference json.RawMessage `json:"reference"`
	Switched  json.RawMessage `json:"switched"`
}

// canon writes JSON text in one form: compact, strings written from their
// value, numbers as written, member order and duplicates kept.
func canon(t *testing.T, text []byte) string {
	t.Helper()
	v, err := parse(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	var clear func(*value)
	clear = func(v *value) {
		switch v.kind {
		case '"':
			v.raw = nil
		case '[':
			for _, e := range v.elems {
				clear(e)
			}
		case '{':
			for i := range v.members {
				m := &v.members[i]
				m.rawKey = appendQuoted(nil, m.key)
				clear(m.val)
			}
		}
	}
	clear(v)
	return string(v.write(nil))
}

// TestWitnesses runs each witness with no switch (it must give the
// reference's answer) and with its switch (it must give the recorded,
// different answer).
func TestWitnesses(t *testing.T) {
	text, err := os.ReadFile("../witnesses.json")
	if err != nil {
		t.Fatal(err)
	}
	var ws []witness
	if err := json.Unmarshal(text, &ws); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, w := range ws {
		t.Run(w.Switch, func(t *testing.T) {
			seen[w.Switch] = true
			ref, sw := canon(t, w.Reference), canon(t, w.Switched)
			if ref == sw {
				t.Fatalf("the recorded answers do not differ: %s", ref)
			}
			clean, err := NormalizeWith("", w.Schema, w.Arguments)
			if err != nil {
				t.Fatalf("clean: %v", err)
			}
			if got := canon(t, clean); got != ref {
				t.Errorf("clean: got %s, want the reference %s", got, ref)
			}
			out, err := NormalizeWith(w.Switch, w.Schema, w.Arguments)
			if err != nil {
				t.Fatalf("%s: %v", w.Switch, err)
			}
			if got := canon(t, out); got != sw {
				t.Errorf("%s: got %s, want %s", w.Switch, got, sw)
			}
			if got := canon(t, out); got == ref {
				t.Errorf("%s: gives the reference's answer %s", w.Switch, got)
			}
		})
	}
	for _, s := range []string{"s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"} {
		if !seen[s] {
			t.Errorf("no witness for %s", s)
		}
	}
}

func TestUnknownSwitch(t *testing.T) {
	if err := SetSwitches("s1,nope"); err == nil {
		t.Fatal("an unknown switch was accepted")
	}
}
