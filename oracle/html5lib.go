package oracle

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
)

// A Case is one character-reference decoding case taken from the html5lib
// tokenizer tests: one decoding pass over Input must give Want, in text
// content (Attribute false, the rule's default) or in an attribute value
// (Attribute true, the attribute profile).
type Case struct {
	Name      string // file, test number and description, for failure messages
	Input     string
	Want      string
	Attribute bool
}

// html5libFiles are the tokenizer test files that hold character-reference
// cases, under html/testdata/html5lib-tests/tokenizer in golang.org/x/net.
var html5libFiles = []string{"namedEntities.test", "numericEntities.test", "entities.test"}

// HTML5LibCases returns the html5lib tokenizer tests that are pure
// character-reference cases, read at run time from the golang.org/x/net
// module in the module cache: the version recorded in the program's build
// information when it has one, or else (as in tests, whose build information
// lists no dependencies) the one `go list -m golang.org/x/net` reports in the
// current directory.
//
// A test becomes a text case when its input has no '<' and its output is
// Character tokens only: Want is their concatenation. It becomes an attribute
// case when its input is <h a="V">, <h a='V'> or <h a=V> and its output is that
// one start tag: Input is V and Want is the attribute's value. Tests run in an
// initial state other than the data state, and tests whose input holds
// characters that the tokenizer rewrites before decoding (CR in both modes,
// NUL in an attribute value), are left out: they are not pure
// character-reference cases. Tests marked doubleEscaped are unescaped once
// more, as the test format requires.
func HTML5LibCases() ([]Case, error) {
	dir, err := xnetDir()
	if err != nil {
		return nil, err
	}
	var cases []Case
	for _, name := range html5libFiles {
		path := filepath.Join(dir, "html", "testdata", "html5lib-tests", "tokenizer", name)
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("oracle: reading html5lib tests: %w", err)
		}
		cs, err := parseTokenizerTests(name, data)
		if err != nil {
			return nil, err
		}
		cases = append(cases, cs...)
	}
	return cases, nil
}

const xnetPath = "golang.org/x/net"

// xnetDir returns the directory of the golang.org/x/net module: the version
// recorded in the running binary's build information, in the module cache; or
// else what `go list -m` says in the current directory.
func xnetDir() (string, error) {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path != xnetPath {
				continue
			}
			m := dep
			if dep.Replace != nil {
				m = dep.Replace
			}
			if m.Version == "" { // a directory replacement: let go list find it
				break
			}
			if cache, err := goModCache(); err == nil {
				dir := filepath.Join(cache, escapeModulePath(m.Path)+"@"+escapeModulePath(m.Version))
				if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
					return dir, nil
				}
			}
		}
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", xnetPath).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			err = fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("oracle: locating module %s: %w", xnetPath, err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		return "", fmt.Errorf("oracle: locating module %s: not downloaded (try go mod download %s)", xnetPath, xnetPath)
	}
	return dir, nil
}

// goModCache returns the module cache directory: $GOMODCACHE, or what
// `go env GOMODCACHE` says.
func goModCache() (string, error) {
	if dir := os.Getenv("GOMODCACHE"); dir != "" {
		return dir, nil
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return "", err
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		return "", errors.New("oracle: empty GOMODCACHE")
	}
	return dir, nil
}

// escapeModulePath applies the module cache's case encoding: each upper-case
// letter becomes '!' and its lower-case form.
func escapeModulePath(s string) string {
	var b strings.Builder
	for _, r := range s {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// tokenizerTest is one test of an html5lib tokenizer test file.
type tokenizerTest struct {
	Description   string            `json:"description"`
	Input         string            `json:"input"`
	Output        []json.RawMessage `json:"output"`
	InitialStates []string          `json:"initialStates"`
	DoubleEscaped bool              `json:"doubleEscaped"`
}

// parseTokenizerTests returns the character-reference cases of the html5lib
// tokenizer test file named name, whose content is data.
func parseTokenizerTests(name string, data []byte) ([]Case, error) {
	var file struct {
		Tests []tokenizerTest `json:"tests"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("oracle: parsing html5lib tests %s: %w", name, err)
	}
	var cases []Case
	for i, t := range file.Tests {
		c, ok, err := referenceCase(t)
		if err != nil {
			return nil, fmt.Errorf("oracle: parsing html5lib tests %s: test %d (%s): %w", name, i, t.Description, err)
		}
		if ok {
			c.Name = fmt.Sprintf("%s #%d: %s", name, i, t.Description)
			cases = append(cases, c)
		}
	}
	return cases, nil
}

// referenceCase turns t into a Case, if it is a pure character-reference
// case (see HTML5LibCases).
func referenceCase(t tokenizerTest) (Case, bool, error) {
	if len(t.InitialStates) > 0 && !slices.Contains(t.InitialStates, "Data state") {
		return Case{}, false, nil
	}
	unescape := func(s string) string { return s }
	if t.DoubleEscaped {
		unescape = unescapeDoubleEscaped
	}
	input := unescape(t.Input)
	if strings.Contains(input, "\r") {
		return Case{}, false, nil
	}
	var tokens [][]any
	for _, raw := range t.Output {
		var tok []any
		if err := json.Unmarshal(raw, &tok); err != nil {
			return Case{}, false, fmt.Errorf("output token %s: %w", raw, err)
		}
		if len(tok) == 0 {
			return Case{}, false, fmt.Errorf("empty output token")
		}
		tokens = append(tokens, tok)
	}

	if !strings.Contains(input, "<") {
		var want strings.Builder
		for _, tok := range tokens {
			if tok[0] != "Character" || len(tok) != 2 {
				return Case{}, false, nil
			}
			data, ok := tok[1].(string)
			if !ok {
				return Case{}, false, fmt.Errorf("character token %v: data is not a string", tok)
			}
			want.WriteString(unescape(data))
		}
		return Case{Input: input, Want: want.String()}, true, nil
	}

	value, ok := attributeValueOf(input)
	if !ok || strings.Contains(value, "\x00") || len(tokens) != 1 {
		return Case{}, false, nil
	}
	tok := tokens[0]
	if len(tok) != 3 || tok[0] != "StartTag" || tok[1] != "h" {
		return Case{}, false, nil
	}
	attrs, ok := tok[2].(map[string]any)
	if !ok || len(attrs) != 1 {
		return Case{}, false, nil
	}
	want, ok := attrs["a"].(string)
	if !ok {
		return Case{}, false, nil
	}
	return Case{Input: value, Want: unescape(want), Attribute: true}, true, nil
}

// attributeValueOf returns V when input is <h a="V">, <h a='V'> or <h a=V>,
// with V as the tokenizer would read it (no closing quote inside a quoted
// value; no whitespace or '>' inside an unquoted one).
func attributeValueOf(input string) (string, bool) {
	rest, ok := strings.CutPrefix(input, "<h a=")
	if !ok {
		return "", false
	}
	rest, ok = strings.CutSuffix(rest, ">")
	if !ok {
		return "", false
	}
	for _, quote := range []byte{'"', '\''} {
		if len(rest) > 0 && rest[0] == quote {
			if len(rest) < 2 || rest[len(rest)-1] != quote {
				return "", false
			}
			v := rest[1 : len(rest)-1]
			if strings.IndexByte(v, quote) >= 0 {
				return "", false
			}
			return v, true
		}
	}
	if strings.ContainsAny(rest, "\t\n\f\r >") {
		return "", false
	}
	return rest, true
}

// unescapeDoubleEscaped applies the second round of unescaping of
// "doubleEscaped" html5lib tests: each \uHHHH becomes that code point. A
// surrogate pair becomes the code point it encodes; a lone surrogate, which a
// Go string cannot hold as a character, is written in the generalized UTF-8
// (WTF-8) form that the tokenizer then carries through byte for byte.
func unescapeDoubleEscaped(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, ok := hex4(s)
		if !ok {
			b.WriteByte(s[0])
			s = s[1:]
			continue
		}
		s = s[6:]
		if 0xD800 <= r && r < 0xDC00 {
			if lo, ok := hex4(s); ok && 0xDC00 <= lo && lo < 0xE000 {
				b.WriteRune(0x10000 + (r-0xD800)<<10 + (lo - 0xDC00))
				s = s[6:]
				continue
			}
		}
		if 0xD800 <= r && r < 0xE000 {
			b.Write([]byte{0xE0 | byte(r>>12), 0x80 | byte(r>>6)&0x3F, 0x80 | byte(r)&0x3F})
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// hex4 reports whether s begins with \uHHHH, and the code point it names.
func hex4(s string) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	n, err := strconv.ParseUint(s[2:6], 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(n), true
}
