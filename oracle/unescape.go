package oracle

import (
	"fmt"
	"strings"

	"golang.org/x/net/html"
)

// Unescape performs exactly one pass of HTML character-reference decoding
// as the WHATWG tokenizer does it in text content: it is
// golang.org/x/net/html's UnescapeString, nothing more.
//
// Legacy names decode without a semicolon (&amp, &not), the longest name wins,
// and numeric references follow the HTML rules (&#0;, surrogates and values
// past U+10FFFF give U+FFFD; 0x80-0x9F map through windows-1252).
func Unescape(s string) string {
	return html.UnescapeString(s)
}

// attributeSplitters are the characters that the tokenizer does not carry
// through a double-quoted attribute value verbatim:
//
//   - '"' ends the value;
//   - NUL is replaced with U+FFFD (Tokenizer.TagAttr);
//   - CR, and the LF of a CR LF pair, are rewritten as a single LF
//     (Tokenizer.TagAttr calls convertNewlines before decoding).
//
// Every other byte, including LF on its own, tab, form feed, '<', '>', '=',
// the single quote and bytes that are not valid UTF-8, reaches the decoder
// unchanged.
const attributeSplitters = "\"\x00\r"

// UnescapeAttribute performs exactly one pass of HTML character-reference
// decoding as the WHATWG tokenizer does it in an attribute value. There, a
// legacy name without a semicolon that is followed by '=' or an ASCII letter
// or digit stays text, so "?a=1&region=eu&not=2" is returned unchanged, where
// [Unescape] gives "?a=1®ion=eu¬=2".
//
// The pass is obtained from golang.org/x/net/html's Tokenizer: s is placed in
// a one-tag document <a x="s"> and the attribute's value is read back.
//
// The characters the tokenizer would not carry through verbatim (the double
// quote, NUL and CR; see attributeSplitters) are handled by splitting s on
// them, decoding each segment on its own, and joining the decoded segments
// with the original characters. This is exact, not an approximation:
//
//   - no character reference contains one of them (a reference is '&', then
//     '#' and digits, or '#x' and hex digits, or a name of ASCII letters and
//     digits, then an optional ';'), so no reference spans a split;
//   - reading a reference consumes only '&', '#', 'x', 'X', ASCII letters and
//     digits and ';', and looks at one further character only to ask whether
//     it is ';' or (in an attribute value) '='. A splitter is none of these,
//     so the decoder stops at it exactly as it stops at the end of the input,
//     which is where the segment now ends, and every reference before it
//     decodes the same way;
//   - the characters themselves are not '&' and are not part of any
//     reference, so decoding leaves them unchanged.
//
// UnescapeAttribute does not make the tokenizer's own rewrites (NUL to
// U+FFFD, CR LF to LF): like [Unescape], it only decodes references.
//
// TestUnescapeAttributeSplit checks the second point against the tokenizer,
// with terminators that the tokenizer does carry verbatim.
func UnescapeAttribute(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexAny(s, attributeSplitters)
		if i < 0 {
			b.WriteString(tokenizeAttributeValue(s))
			return b.String()
		}
		b.WriteString(tokenizeAttributeValue(s[:i]))
		b.WriteByte(s[i])
		s = s[i+1:]
	}
}

// tokenizeAttributeValue returns the value the x/net tokenizer gives to the
// attribute x of the document <a x="s">. s must not contain any of
// attributeSplitters.
func tokenizeAttributeValue(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	z := html.NewTokenizer(strings.NewReader(`<a x="` + s + `">`))
	if tt := z.Next(); tt != html.StartTagToken {
		panic(fmt.Sprintf("oracle: tokenizing attribute value %q: got %v token, want a start tag (%v)", s, tt, z.Err()))
	}
	tok := z.Token()
	if len(tok.Attr) != 1 || tok.Attr[0].Key != "x" {
		panic(fmt.Sprintf("oracle: tokenizing attribute value %q: got attributes %q, want one named x", s, tok.Attr))
	}
	return tok.Attr[0].Val
}

// Fixpoint applies pass to s until the value stops changing, and returns the
// last value. It is the naive definition of the rule's repetition ("repeated
// until the value stops changing") and is quadratic on adversarial input.
//
// maxPasses bounds the number of passes; 0 (or a negative number) means
// unbounded. passes is the number of passes that changed the value. fixpoint
// reports whether out is a fixpoint, that is whether pass(out) == out; it is
// false only when the bound stopped the iteration while a further pass would
// still have changed the value. To find that out, one more pass is run when
// the bound is reached.
//
// With an unbounded Fixpoint, pass must reach a fixpoint on s, or Fixpoint
// does not return. [Unescape] and [UnescapeAttribute] always do: a pass that
// changes its input shortens it by at least two code points.
func Fixpoint(s string, pass func(string) string, maxPasses int) (out string, passes int, fixpoint bool) {
	for {
		next := pass(s)
		if next == s {
			return s, passes, true
		}
		if maxPasses > 0 && passes == maxPasses {
			return s, passes, false
		}
		s = next
		passes++
	}
}

// UnescapeFixpoint repeats [Unescape] until the value stops changing:
// Fixpoint(s, Unescape, 0).
func UnescapeFixpoint(s string) string {
	out, _, _ := Fixpoint(s, Unescape, 0)
	return out
}
