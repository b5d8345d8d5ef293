package normalize

// The realistic tool arguments the benchmarks run on (docs/performance.md),
// generated deterministically from fixed seeds: the same bytes on every
// machine and every run. Each size has one tool, whose schema is in
// testdata/bench:
//
//   - small, about 300 bytes: a web search (search.schema.json);
//   - medium, about 8 KB: opening an issue with a Markdown body and a
//     checklist of objects (issue.schema.json);
//   - large, about 1 MB: a batch of edits to a structured document, with
//     nested arrays of objects and recursive blocks through $ref
//     (document.schema.json).
//
// Each comes clean (nothing to repair) and dirty: the same arguments with
// about 5% of the string bytes turned into character references (some
// escaped twice, "&amp;amp;") and every top-level array or object sent as
// a string. Normalizing the dirty arguments gives the clean ones back, byte
// for byte (TestBenchData).
//
// To look at them: go test ./normalize -run TestBenchData -args -benchdata.dump DIR

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var benchDump = flag.String("benchdata.dump", "", "write the generated benchmark arguments to this directory")

// refShare is the share of string bytes the dirty arguments have in
// character references.
const refShare = 0.05

type benchCase struct {
	size   string // small, medium, large
	tool   string // the schema's file name, without .schema.json
	schema []byte
	clean  []byte
	dirty  []byte
	// refBytes and strBytes count, over the dirty arguments' string values,
	// the bytes in references and all bytes.
	refBytes, strBytes int
}

var benchCases = sync.OnceValue(func() []*benchCase {
	specs := []struct {
		size, tool string
		build      func(g *gen) jobj
	}{
		{"small", "search", (*gen).search},
		{"medium", "issue", (*gen).issue},
		{"large", "document", (*gen).document},
	}
	var out []*benchCase
	for i, s := range specs {
		schema, err := os.ReadFile(filepath.Join("testdata", "bench", s.tool+".schema.json"))
		if err != nil {
			panic(err)
		}
		c := &benchCase{size: s.size, tool: s.tool, schema: schema}
		seed := uint64(i + 1)
		clean := &gen{r: rand.New(rand.NewPCG(seed, 1)), d: rand.New(rand.NewPCG(seed, 2))}
		dirty := &gen{r: rand.New(rand.NewPCG(seed, 1)), d: rand.New(rand.NewPCG(seed, 2)), dirty: true}
		c.clean = appendJSON(nil, s.build(clean))
		dirty.edits = clean.edits
		v := s.build(dirty)
		// Every top-level array and object goes as a string.
		for k := range v {
			switch v[k].v.(type) {
			case jobj, jarr:
				v[k].v = string(appendJSON(nil, v[k].v))
			}
		}
		c.dirty = appendJSON(nil, v)
		c.refBytes, c.strBytes = dirty.refBytes, dirty.strBytes
		out = append(out, c)
	}
	return out
})

func benchCaseOf(size string) *benchCase {
	for _, c := range benchCases() {
		if c.size == size {
			return c
		}
	}
	panic("no bench case " + size)
}

// An ordered JSON value: jobj, jarr, string, jnum, bool.
type (
	jobj    []jmember
	jarr    []any
	jnum    string
	jmember struct {
		k string
		v any
	}
)

func appendJSON(b []byte, v any) []byte {
	switch v := v.(type) {
	case jobj:
		b = append(b, '{')
		for i, m := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, m.k)
			b = append(b, ':')
			b = appendJSON(b, m.v)
		}
		return append(b, '}')
	case jarr:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, e)
		}
		return append(b, ']')
	case string:
		return appendString(b, v)
	case jnum:
		return append(b, v...)
	case bool:
		return strconv.AppendBool(b, v)
	case nil:
		return append(b, "null"...)
	}
	panic(fmt.Sprintf("appendJSON: %T", v))
}

// appendString quotes s as a model's JSON would: '"', '\\' and control
// characters escaped, everything else as it is.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = fmt.Appendf(b, `\u%04x`, c)
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// gen writes realistic text. r drives everything both variants share, d
// only the choices of the dirty one, so that the clean and dirty arguments
// have the same shape and, once repaired, the same text.
type gen struct {
	r, d               *rand.Rand
	dirty              bool
	refBytes, strBytes int
	// extra is how many more bytes the references took than the text
	// they stand for: lengths are measured without it, so that both
	// variants draw the same numbers.
	extra int
	// edits is how many edits the clean document has; the dirty one,
	// longer, has as many.
	edits int
}

var words = strings.Fields(`the a an of to in for on with by from as at is are was be
	this that it we you they our your their not can will should would may must
	request response server client cache index query result results page pages
	document section paragraph table row column field value values update updates
	error errors timeout retry latency throughput deploy release build test tests
	user users account team project issue review change changes version schema
	data report summary draft final meeting notes customer order invoice payment
	search filter sort limit offset token tokens model prompt tool call argument
	quickly slowly again before after during between across under over about
	new old large small fast slow simple complex stable current previous next
	first second third last every each some many few more most less least
	check fix add remove rename move merge split handle parse render store load
	send receive open close start stop run read write keep drop show hide
	network storage memory disk region cluster node service endpoint gateway
	policy budget forecast quarter revenue growth market pricing contract vendor`)

// special is a piece of text a model sometimes sends as a character
// reference: the text, and the references that stand for it.
type special struct {
	text string
	refs []string
}

var (
	apostrophe = special{"'", []string{"&#39;", "&#x27;", "&apos;", "&amp;#39;"}}
	quoteMark  = special{`"`, []string{"&quot;", "&quot;", "&amp;quot;"}}
	ampersand  = special{"&", []string{"&amp;", "&amp;", "&amp;amp;", "&#38;"}}
	lessThan   = special{"<", []string{"&lt;", "&lt;", "&amp;lt;"}}
	greater    = special{">", []string{"&gt;", "&gt;", "&amp;gt;"}}
	eAcute     = special{"é", []string{"&eacute;", "&#233;"}}
	emDash     = special{"—", []string{"&mdash;", "&#8212;", "&#x2014;"}}
	rsquo      = special{"’", []string{"&rsquo;", "&#8217;"}}
	nbsp       = special{"\u00a0", []string{"&nbsp;", "&#160;"}}
	copyright  = special{"©", []string{"&copy;"}}
)

// emit appends the special to b, as a reference when the dirty variant is
// short of its share of references.
func (g *gen) emit(b []byte, s special) []byte {
	if g.dirty && float64(g.refBytes) < refShare*float64(g.strBytes+len(b)) {
		ref := s.refs[g.d.IntN(len(s.refs))]
		g.refBytes += len(ref)
		g.extra += len(ref) - len(s.text)
		return append(b, ref...)
	}
	return append(b, s.text...)
}

func (g *gen) word() string { return words[g.r.IntN(len(words))] }

// sentence appends one sentence, with now and then an apostrophe, a quoted
// phrase, an ampersand, a tag, an accent or a dash.
func (g *gen) sentence(b []byte) []byte {
	n := 6 + g.r.IntN(12)
	for i := range n {
		if i > 0 {
			b = append(b, ' ')
		}
		w := g.word()
		if i == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		switch k := g.r.IntN(100); {
		case k == 0:
			b = append(b, w...)
			b = g.emit(b, apostrophe)
			b = append(b, 's')
		case k == 1:
			b = g.emit(b, quoteMark)
			b = append(b, w...)
			b = append(b, ' ')
			b = append(b, g.word()...)
			b = g.emit(b, quoteMark)
		case k == 2:
			b = append(b, "R"...)
			b = g.emit(b, ampersand)
			b = append(b, "D"...)
		case k == 3:
			b = append(b, w...)
			b = append(b, ' ')
			b = g.emit(b, ampersand)
		case k == 4:
			b = g.emit(b, lessThan)
			b = append(b, "code"...)
			b = g.emit(b, greater)
			b = append(b, w...)
			b = g.emit(b, lessThan)
			b = append(b, "/code"...)
			b = g.emit(b, greater)
		case k == 5:
			b = append(b, "caf"...)
			b = g.emit(b, eAcute)
		case k == 6:
			b = append(b, w...)
			b = append(b, ' ')
			b = g.emit(b, emDash)
		case k == 7:
			b = append(b, "we"...)
			b = g.emit(b, rsquo)
			b = append(b, "re"...)
		case k == 8:
			b = append(b, w...)
			b = g.emit(b, nbsp)
			b = append(b, strconv.Itoa(g.r.IntN(100))...)
		case k == 9:
			b = g.emit(b, copyright)
			b = append(b, " 2024"...)
		case k == 10:
			b = append(b, "naïve"...)
		case k == 11:
			b = append(b, "Q&A"...) // an '&' that is no reference: clean text too
		default:
			b = append(b, w...)
		}
	}
	return append(b, '.')
}

// text returns sentences up to about n bytes, paragraphs split by blank
// lines when para is set.
func (g *gen) text(n int, para bool) string {
	var b []byte
	for extra0 := g.extra; len(b)-(g.extra-extra0) < n; {
		if len(b) > 0 {
			if para && g.r.IntN(4) == 0 {
				b = append(b, "\n\n"...)
			} else {
				b = append(b, ' ')
			}
		}
		b = g.sentence(b)
	}
	return g.str(b)
}

// str counts s as string bytes and returns it.
func (g *gen) str(b []byte) string {
	g.strBytes += len(b)
	return string(b)
}

func (g *gen) label() string { return g.str([]byte(g.word() + "-" + g.word())) }

func (g *gen) id(prefix string) string {
	return g.str(fmt.Appendf(nil, "%s_%08x", prefix, g.r.Uint32()))
}

func (g *gen) labels(n int) jarr {
	a := make(jarr, n)
	for i := range a {
		a[i] = g.label()
	}
	return a
}

func num(i int) jnum { return jnum(strconv.Itoa(i)) }

// search is about 300 bytes of arguments for a web search.
func (g *gen) search() jobj {
	// A query written out, so that its few bytes have their share of
	// references.
	var q []byte
	q = append(q, "site docs "...)
	q = g.emit(q, quoteMark)
	q = append(q, "R"...)
	q = g.emit(q, ampersand)
	q = append(q, "D tax credit"...)
	q = g.emit(q, quoteMark)
	q = append(q, " rules for caf"...)
	q = g.emit(q, eAcute)
	q = append(q, " owners "...)
	q = g.emit(q, emDash)
	q = append(q, " what"...)
	q = g.emit(q, apostrophe)
	q = append(q, "s new in 2024 for small teams"...)
	return jobj{
		{"query", g.str(q)},
		{"filters", jobj{
			{"site", g.str([]byte("docs.example.com"))},
			{"language", g.str([]byte("en"))},
			{"published_after", g.str([]byte("2024-03-01"))},
			{"exclude_terms", g.labels(2)},
		}},
		{"tags", g.labels(3)},
		{"max_results", num(10)},
		{"safe_search", true},
	}
}

// issue is about 8 KB of arguments for opening an issue.
func (g *gen) issue() jobj {
	var body []byte
	for extra0 := g.extra; len(body)-(g.extra-extra0) < 4500; {
		switch g.r.IntN(5) {
		case 0:
			body = append(body, g.str([]byte("## "))...)
			body = append(body, g.text(30, false)...)
		case 1:
			body = append(body, g.str([]byte("```go\nif err := s.Normalize(args); err != nil {\n\treturn fmt.Errorf(\"normalize: %w\", err)\n}\n```"))...)
		default:
			body = append(body, g.text(300, true)...)
		}
		body = append(body, g.str([]byte("\n\n"))...)
	}
	checklist := make(jarr, 12)
	for i := range checklist {
		checklist[i] = jobj{
			{"text", g.text(100, false)},
			{"done", g.r.IntN(2) == 0},
			{"links", jarr{g.str(fmt.Appendf(nil, "https://tracker.example.com/acme/web/issues/%d", 1000+g.r.IntN(9000)))}},
		}
	}
	return jobj{
		{"repository", g.str([]byte("acme/web"))},
		{"title", g.text(70, false)},
		{"body", string(body)},
		{"labels", g.labels(4)},
		{"assignees", jarr{g.str([]byte("mkowalski")), g.str([]byte("j.doe"))}},
		{"fields", jobj{
			{"priority", g.str([]byte("high"))},
			{"estimate", jnum("3.5")},
			{"component", g.label()},
			{"due", nil},
			{"customer", g.text(40, false)},
		}},
		{"checklist", checklist},
		{"notify", true},
	}
}

// document is about 1 MB of arguments for a batch of document edits.
func (g *gen) document() jobj {
	var edits jarr
	size := 0
	for g.dirty && len(edits) < g.edits || !g.dirty && size < 1<<20-2048 {
		e := g.edit()
		size += len(appendJSON(nil, e)) + 1
		edits = append(edits, e)
	}
	g.edits = len(edits)
	return jobj{
		{"document_id", g.id("doc")},
		{"base_revision", num(g.r.IntN(100000))},
		{"edits", edits},
		{"metadata", jobj{
			{"author", g.str([]byte("assistant"))},
			{"reason", g.text(120, false)},
			{"labels", g.labels(3)},
		}},
		{"options", jobj{
			{"track_changes", true},
			{"notify", jarr{g.str([]byte("editor@example.com"))}},
			{"style", jobj{{"font", g.str([]byte("Inter"))}, {"size", jnum("11.5")}, {"color", g.str([]byte("#1f2937"))}}},
		}},
	}
}

func (g *gen) edit() jobj {
	ops := [...]string{"insert", "replace", "replace", "delete", "move"}
	op := ops[g.r.IntN(len(ops))]
	start := g.r.IntN(2000)
	e := jobj{
		{"op", g.str([]byte(op))},
		{"target", jobj{
			{"block_id", g.id("blk")},
			{"range", jobj{{"start", num(start)}, {"end", num(start + g.r.IntN(400))}}},
		}},
	}
	if op != "delete" {
		blocks := make(jarr, 1+g.r.IntN(3))
		for i := range blocks {
			blocks[i] = g.block(0)
		}
		e = append(e, jmember{"blocks", blocks})
	}
	if g.r.IntN(3) == 0 {
		e = append(e, jmember{"comment", g.text(60, false)})
	} else {
		e = append(e, jmember{"comment", nil})
	}
	return e
}

func (g *gen) block(depth int) jobj {
	kinds := [...]string{"paragraph", "paragraph", "paragraph", "heading", "list", "quote", "code", "table"}
	kind := kinds[g.r.IntN(len(kinds))]
	if depth >= 2 && (kind == "list" || kind == "table") {
		kind = "paragraph"
	}
	b := jobj{{"id", g.id("blk")}, {"type", g.str([]byte(kind))}}
	switch kind {
	case "heading":
		b = append(b, jmember{"level", num(1 + g.r.IntN(3))}, jmember{"text", g.text(40, false)})
	case "code":
		b = append(b, jmember{"text", g.str([]byte("for (const row of rows) {\n\tif (row.total > limit && row.region !== \"eu\") {\n\t\tflag(row);\n\t}\n}"))},
			jmember{"attrs", jobj{{"language", g.str([]byte("javascript"))}, {"wrap", false}}})
	case "list":
		items := make(jarr, 2+g.r.IntN(4))
		for i := range items {
			items[i] = jobj{{"id", g.id("blk")}, {"type", g.str([]byte("list_item"))}, {"text", g.text(60, false)}}
		}
		b = append(b, jmember{"attrs", jobj{{"ordered", g.r.IntN(2) == 0}}}, jmember{"children", items})
	case "table":
		rows := make(jarr, 2+g.r.IntN(3))
		for i := range rows {
			cells := make(jarr, 3)
			for j := range cells {
				cells[j] = jobj{{"type", g.str([]byte("table_cell"))}, {"text", g.text(15, false)}, {"attrs", jobj{{"align", g.str([]byte("left"))}, {"width", num(120)}}}}
			}
			rows[i] = jobj{{"type", g.str([]byte("table_row"))}, {"children", cells}}
		}
		b = append(b, jmember{"children", rows})
	default:
		text := g.text(150+g.r.IntN(300), false)
		b = append(b, jmember{"text", text})
		if g.r.IntN(2) == 0 {
			s := g.r.IntN(40)
			b = append(b, jmember{"marks", jarr{
				jobj{{"type", g.str([]byte("bold"))}, {"start", num(s)}, {"end", num(s + 8)}},
				jobj{{"type", g.str([]byte("link"))}, {"start", num(s + 20)}, {"end", num(s + 31)}, {"href", g.str(fmt.Appendf(nil, "https://example.com/docs/%d?ref=doc", g.r.IntN(1000)))}},
			}})
		}
		if depth < 2 && g.r.IntN(6) == 0 {
			b = append(b, jmember{"children", jarr{g.block(depth + 1)}})
		}
	}
	return b
}

// TestBenchData checks the benchmark arguments: their sizes, the share of
// references, and that normalizing the dirty arguments gives the clean
// ones back, byte for byte, while the clean ones come out as they are. It
// also checks that the naive baseline computes the same values.
func TestBenchData(t *testing.T) {
	for _, c := range benchCases() {
		s, err := Compile(c.schema)
		if err != nil {
			t.Fatal(err)
		}
		share := float64(c.refBytes) / float64(c.strBytes)
		t.Logf("%s (%s): clean %d bytes, dirty %d bytes, %.1f%% of %d string bytes in references",
			c.size, c.tool, len(c.clean), len(c.dirty), 100*share, c.strBytes)
		if share < 0.04 || share > 0.06 {
			t.Errorf("%s: %.1f%% of the string bytes in references, want about 5%%", c.size, 100*share)
		}
		out, err := s.Normalize(c.clean)
		if err != nil || !bytes.Equal(out, c.clean) {
			t.Errorf("%s: clean arguments changed (err %v)", c.size, err)
		}
		out, err = s.Normalize(c.dirty)
		if err != nil || !bytes.Equal(out, c.clean) {
			t.Errorf("%s: dirty arguments do not normalize to the clean ones (err %v)", c.size, err)
		}
		naive, err := newNaive(c.schema)
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]byte{c.clean, c.dirty} {
			got, err := naive.normalize(args)
			if err != nil {
				t.Fatalf("%s: naive: %v", c.size, err)
			}
			if !sameJSON(t, got, c.clean) {
				t.Errorf("%s: the naive baseline disagrees", c.size)
			}
		}
		if *benchDump != "" {
			for name, b := range map[string][]byte{"clean": c.clean, "dirty": c.dirty} {
				f := filepath.Join(*benchDump, c.size+"-"+c.tool+"-"+name+".json")
				if err := os.WriteFile(f, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
