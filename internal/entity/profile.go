package entity

import "fmt"

// Profile says where a reference stands, which changes how legacy names
// decode (docs/readings.md, section 3). It is the one declaration of the
// profile: package normalize publishes it as normalize.Profile, and
// vectors, declarations and flags carry its text form, "text" or
// "attribute".
type Profile uint8

const (
	// Text is the tokenizer's rule for text content: a legacy name decodes
	// without its ';' whatever follows it, and the longest name wins.
	Text Profile = iota
	// Attribute is the tokenizer's rule for attribute values: a name without
	// its ';' that is followed by '=' or an ASCII letter or digit stays text.
	Attribute
)

var profileNames = [...]string{Text: "text", Attribute: "attribute"}

// String gives "text" or "attribute", and "Profile(n)" for a value out of
// range.
func (p Profile) String() string {
	if int(p) < len(profileNames) {
		return profileNames[p]
	}
	return fmt.Sprintf("Profile(%d)", uint8(p))
}

// MarshalText gives "text" or "attribute"; a value out of range is an
// error.
func (p Profile) MarshalText() ([]byte, error) {
	if int(p) < len(profileNames) {
		return []byte(profileNames[p]), nil
	}
	return nil, fmt.Errorf("profile %d: want text or attribute", uint8(p))
}

// UnmarshalText reads "text" or "attribute"; the empty text is Text, the
// default.
func (p *Profile) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*p = Text
		return nil
	}
	for i, n := range profileNames {
		if string(b) == n {
			*p = Profile(i)
			return nil
		}
	}
	return fmt.Errorf("profile %q: want text or attribute", b)
}
