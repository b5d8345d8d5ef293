package corpus

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	fuzzheaders "github.com/AdaLogics/go-fuzz-headers"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
)

// TestCommittedCorpus replays every committed vector on the reference
// normalizer, through Lint, which also checks each vector's format, id and
// place, and that no id or description repeats.
func TestCommittedCorpus(t *testing.T) {
	vectors, err := Load(Embedded())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range Lint(vectors, Reference) {
		t.Error(p)
	}
	hand := 0
	for _, v := range vectors {
		if v.Origin == "hand" {
			hand++
		}
	}
	t.Logf("%d vectors, %d written by hand", len(vectors), hand)
	if hand < 150 {
		t.Errorf("only %d hand-written vectors, want at least 150", hand)
	}
}

// sample returns the committed vectors other than html5lib's, and every
// tenth of those: the variety of the corpus in a fraction of its files.
func sample(t *testing.T) []*Vector {
	t.Helper()
	vectors, err := Load(Embedded())
	if err != nil {
		t.Fatal(err)
	}
	var out []*Vector
	for i, v := range vectors {
		if v.Origin != "html5lib" || i%10 == 0 {
			out = append(out, v)
		}
	}
	return out
}

// TestLintFailsOnWrongExpected: a vector whose expected output the
// reference does not produce is reported, naming its file.
func TestLintFailsOnWrongExpected(t *testing.T) {
	vectors := sample(t)
	v := vectors[0]
	data, err := fs.ReadFile(Embedded(), v.File)
	if err != nil {
		t.Fatal(err)
	}
	bad, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	bad.File = v.File
	bad.SetResult(Result{Output: []byte(`{"wrong":true}`)})
	problems := Lint([]*Vector{bad}, Reference)
	if len(problems) != 1 || problems[0].File != v.File || !strings.Contains(problems[0].Msg, "does not give the expected result") {
		t.Fatalf("Lint = %v, want one problem naming %s", problems, v.File)
	}
	if len(Lint([]*Vector{v}, Reference)) != 0 {
		t.Fatalf("Lint reports the unchanged vector %s", v.File)
	}
}

func TestLintFindsMalformedVectors(t *testing.T) {
	schema, args := []byte(`{}`), []byte(`{"a":"&amp;"}`)
	good := New("A reference decodes", "rule/4", "hand", nil, schema, args, Options{}, Reference)
	good.File = "vectors/rule/a-reference-decodes.json"
	tests := []struct {
		name   string
		mutate func(v *Vector)
		want   string
	}{
		{"bad-id", func(v *Vector) { v.ID = "0000000000000000" }, "does not match the content"},
		{"bad-clause", func(v *Vector) { v.Clause = "rule/9" }, "clause"},
		{"two-lines", func(v *Vector) { v.Description = "a\nb" }, "one non-empty line"},
		{"wrong-group", func(v *Vector) { v.File = "vectors/reading/x.json" }, "belongs in vectors/rule"},
		{"both-forms", func(v *Vector) { s := `{}`; v.ArgumentsRaw = &s }, "more than one of arguments, arguments_raw and arguments_base64"},
		{"error-and-expected", func(v *Vector) { v.Error = ErrNotObject }, "not both"},
		{"lossy-number", func(v *Vector) { v.Expected = []byte(`{"a":12345678901234567890}`) }, "use expected_raw"},
		// Nested past what jq 1.6 reads (256 levels) with a report's
		// five around it: embedded, the report that carries it would not
		// parse there.
		{"deep", func(v *Vector) {
			v.Arguments = []byte(`{"a":` + strings.Repeat("[", 250) + strings.Repeat("]", 250) + `}`)
		}, "use arguments_raw"},
		{"bad-tag", func(v *Vector) { v.Tags = []string{"Bad Tag"} }, "tag"},
	}
	for _, tt := range tests {
		v := *good
		tt.mutate(&v)
		problems := Lint([]*Vector{&v}, Reference)
		if len(problems) == 0 || !strings.Contains(problems[0].Msg, tt.want) {
			t.Errorf("%s: Lint = %v, want a problem with %q", tt.name, problems, tt.want)
		}
	}
	dup := *good
	if p := Lint([]*Vector{good, &dup}, Reference); len(p) != 2 {
		t.Errorf("Lint of a repeated vector = %v, want the same id and the same description", p)
	}
}

func TestLoadReportsBadFiles(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "vectors", "rule"), 0o755)
	os.WriteFile(filepath.Join(dir, "vectors", "rule", "broken.json"), []byte(`{"id":`), 0o644)
	os.WriteFile(filepath.Join(dir, "vectors", "rule", "unknown.json"), []byte(`{"id":"x","colour":"red"}`), 0o644)
	os.WriteFile(filepath.Join(dir, "vectors", "rule", "notes.txt"), []byte(`hi`), 0o644)
	_, err := Load(os.DirFS(dir))
	for _, want := range []string{"vectors/rule/broken.json: not a vector", `vectors/rule/unknown.json: not a vector: json: unknown field "colour"`, "vectors/rule/notes.txt: not a vector"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load error %v, want it to say %q", err, want)
		}
	}
	if _, err := Load(os.DirFS(t.TempDir())); err == nil || !strings.Contains(err.Error(), "no vectors/ directory") {
		t.Errorf("Load of an empty directory: %v", err)
	}
}

func TestAdd(t *testing.T) {
	dir := t.TempDir()
	schema, args := []byte(`{"properties":{"t":{"type":"array"}}}`), []byte(`{"t":"[1]"}`)
	v := New("A stringified array is decoded", "rule/2", "hand", []string{"json-repair"}, schema, args, Options{}, Reference)
	file, added, err := Add(dir, nil, v)
	if err != nil || !added || file != "vectors/rule/a-stringified-array-is-decoded.json" {
		t.Fatalf("Add = %q, %v, %v", file, added, err)
	}
	vectors, err := Load(os.DirFS(dir))
	if err != nil || len(vectors) != 1 || vectors[0].ID != v.ID || len(Lint(vectors, Reference)) != 0 {
		t.Fatalf("after Add: %v, %v", vectors, err)
	}
	// The same case again writes nothing.
	again := New("Another description", "rule/2", "hand", nil, schema, args, Options{}, Reference)
	if file, added, err := Add(dir, vectors, again); err != nil || added || file != vectors[0].File {
		t.Fatalf("Add of an existing case = %q, %v, %v; want nothing written", file, added, err)
	}
	// The same case expecting something else is refused, naming the file.
	other := New("Contradiction", "rule/2", "hand", nil, schema, args, Options{}, Reference)
	other.SetResult(Result{Output: []byte(`{"t":"[1]"}`)})
	if _, _, err := Add(dir, vectors, other); err == nil || !strings.Contains(err.Error(), vectors[0].File) {
		t.Fatalf("Add of a contradiction: %v", err)
	}
	// A taken file name is never replaced: the id is added to the name.
	clash := New("A stringified array is decoded", "rule/2", "hand", nil, schema, []byte(`{"t":"[2]"}`), Options{}, Reference)
	if file, added, err := Add(dir, vectors, clash); err != nil || !added || !strings.HasSuffix(file, "-"+clash.ID+".json") {
		t.Fatalf("Add with a taken name = %q, %v, %v", file, added, err)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "vectors", "rule")); len(entries) != 2 {
		t.Fatalf("%d files, want 2 (and no temporary files)", len(entries))
	}
}

// onePass is a broken implementation: it decodes references once, not to
// the fixpoint, as many real ones do.
type onePass struct{}

func (onePass) Name() string { return "one pass" }
func (onePass) Normalize(ctx context.Context, c impl.Case) Result {
	c.Options = Options{Profile: c.Options.Profile, MaxPasses: 1, MaxDepth: c.Options.MaxDepth}
	return Reference.Normalize(ctx, c)
}

func TestNewFindingMinimizes(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"title":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},"n":{"type":"number"}}}`)
	args := []byte(`{"title":"Ember &amp;amp; Oak, a long title that says a lot","tags":["x","y &amp; z"],"n":12345678901234567890,"other":{"deep":[1,2,3]}}`)
	v := NewFinding(context.Background(), onePass{}, Reference, "One pass is not the fixpoint", "rule/4", "found", nil, schema, args, Options{})
	if v == nil {
		t.Fatal("NewFinding found no failure")
	}
	// Minimal: one member, a string of a reference that takes two passes
	// (such as "&amp;lt;" or "&ampmp;", which is "&mp;", then "∓").
	if got := string(v.ArgumentsText()); len(got) > 24 || strings.Count(got, ":") != 1 {
		t.Errorf("minimized arguments %s: want one short member", got)
	}
	if got := string(v.SchemaText()); got != "{}" {
		t.Errorf("minimized schema %s: want {}", got)
	}
	if !Difference(context.Background(), onePass{}, Reference, impl.Case{Schema: v.SchemaText(), Args: v.ArgumentsText(), Options: v.Options}).Violation() {
		t.Error("the minimized case no longer fails")
	}
	if NewFinding(context.Background(), Reference, Reference, "x", "found", "found", nil, schema, args, Options{}) != nil {
		t.Error("the reference fails its own case")
	}
	t.Logf("minimized to schema %s args %s", v.SchemaText(), v.ArgumentsText())
}

// onePassBatches is onePass taking batches, as a program behind the
// protocol does: it counts the batches and their cases.
type onePassBatches struct {
	onePass
	batches, cases *int
}

func (b onePassBatches) RunBatch(ctx context.Context, cases []impl.Case) []Result {
	*b.batches, *b.cases = *b.batches+1, *b.cases+len(cases)
	out := make([]Result, len(cases))
	for i, c := range cases {
		out[i] = b.Normalize(ctx, c)
	}
	return out
}

// TestNewFindingBatches: an implementation that takes batches is given
// the minimizer's candidates several at a time, in fewer batches than
// candidates, and the vector is the one found one candidate at a time.
func TestNewFindingBatches(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"title":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},"n":{"type":"number"}}}`)
	args := []byte(`{"title":"Ember &amp;amp; Oak, a long title that says a lot","tags":["x","y &amp; z"],"n":12345678901234567890,"other":{"deep":[1,2,3]}}`)
	one := NewFinding(context.Background(), onePass{}, Reference, "One pass", "rule/4", "found", nil, schema, args, Options{})
	var batches, cases int
	got := NewFinding(context.Background(), onePassBatches{batches: &batches, cases: &cases}, Reference, "One pass", "rule/4", "found", nil, schema, args, Options{})
	if one == nil || got == nil {
		t.Fatal("NewFinding found no failure")
	}
	if string(got.SchemaText()) != string(one.SchemaText()) || string(got.ArgumentsText()) != string(one.ArgumentsText()) || got.ID != one.ID {
		t.Errorf("batched: %s %s, one at a time: %s %s", got.SchemaText(), got.ArgumentsText(), one.SchemaText(), one.ArgumentsText())
	}
	// A kept candidate starts the next batch at one (the next is often
	// kept too), and no candidate is sent twice: 46 cases in 25 batches.
	if batches == 0 || batches*5 > cases*3 {
		t.Errorf("%d cases in %d batches: want at most 3 batches for 5 cases", cases, batches)
	}
}

func TestGoFuzzRoundTrip(t *testing.T) {
	for _, in := range []FuzzInput{
		{[]byte(`{}`), []byte(`{"a":"\ud800 &amp;"}`), true, 2},
		{[]byte{}, []byte("\xff\x00\"\\\n"), false, 0},
	} {
		got, err := DecodeGoFuzz(EncodeGoFuzz(in))
		if err != nil || !bytes.Equal(got.Schema, in.Schema) || !bytes.Equal(got.Args, in.Args) || got.Attribute != in.Attribute || got.Bound != in.Bound {
			t.Errorf("DecodeGoFuzz(EncodeGoFuzz(%+v)) = %+v, %v", in, got, err)
		}
	}
	s, err := DecodeGoFuzz([]byte("go test fuzz v1\nstring(\"&amp;\")\nbool(true)\nbyte('\\x01')\n"))
	if err != nil || string(s.Args) != `{"s":"&amp;"}` || !s.Attribute || s.Bound != 1 {
		t.Errorf("a FuzzDecode input reads as %+v, %v", s, err)
	}
	for _, bad := range []string{"", "go test fuzz v1\nint(3)\n", "go test fuzz v1\n[]byte(\"x\"\n", "go test fuzz v2\n"} {
		if _, err := DecodeGoFuzz([]byte(bad)); err == nil {
			t.Errorf("DecodeGoFuzz(%q) succeeded", bad)
		}
	}
}

// TestLibFuzzerEncoding decodes what EncodeLibFuzzer writes with
// go-fuzz-headers itself, at the version go-118-fuzz-build pins, as
// OSS-Fuzz's binaries will.
func TestLibFuzzerEncoding(t *testing.T) {
	vectors, err := Load(Embedded())
	if err != nil {
		t.Fatal(err)
	}
	inputs := []FuzzInput{{[]byte{}, []byte(`{}`), true, 1}, {[]byte(`{}`), []byte{}, false, 2}}
	for _, v := range vectors[:200] {
		if in, ok := v.FuzzInput(); ok {
			inputs = append(inputs, in)
		}
	}
	for _, in := range inputs {
		data := EncodeLibFuzzer(in)
		c := fuzzheaders.NewConsumer(data)
		schema, err1 := c.GetBytes()
		args, err2 := c.GetBytes()
		attr, err3 := c.GetBool()
		bound, err4 := c.GetByte()
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil ||
			!bytes.Equal(schema, in.Schema) || !bytes.Equal(args, in.Args) || attr != in.Attribute || bound != in.Bound {
			t.Fatalf("go-fuzz-headers reads %q as (%q, %q, %v, %d) (%v %v %v %v), want %+v", data, schema, args, attr, bound, err1, err2, err3, err4, in)
		}
		back, err := DecodeLibFuzzer(data)
		if err != nil || !bytes.Equal(back.Schema, in.Schema) || !bytes.Equal(back.Args, in.Args) || back.Attribute != in.Attribute || back.Bound != in.Bound {
			t.Fatalf("DecodeLibFuzzer(EncodeLibFuzzer(%+v)) = %+v, %v", in, back, err)
		}
	}
}

// TestExportImportRoundTrip: exporting the corpus and importing it back,
// in every format, finds every case already there and writes nothing.
func TestExportImportRoundTrip(t *testing.T) {
	// The vectors are all in the corpus already, so Import writes nothing
	// into dir: an empty directory shows it.
	dir, vectors := t.TempDir(), sample(t)
	out := t.TempDir()
	if _, skipped, err := ExportGoFuzz(vectors, out); err != nil || skipped != countUnfuzzable(vectors) {
		t.Fatalf("ExportGoFuzz: %v (%d skipped)", err, skipped)
	}
	var jsonl bytes.Buffer
	if err := ExportJSONL(vectors, &jsonl); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(out, "all.jsonl"), jsonl.Bytes(), 0o644)
	for name, read := range map[string]func() ([]Source, error){
		"gofuzz": func() ([]Source, error) { return ReadGoFuzz(filepath.Join(out, "FuzzNormalize")) },
		"jsonl":  func() ([]Source, error) { return ReadJSONL(filepath.Join(out, "all.jsonl")) },
	} {
		sources, err := read()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		files, already, err := Import(dir, vectors, sources, Reference)
		if err != nil || len(files) != 0 || already != len(sources) {
			t.Fatalf("%s: Import = %v, %d already of %d, %v; want nothing written", name, files, already, len(sources), err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatal("Import wrote into the corpus")
	}
}

func countUnfuzzable(vectors []*Vector) int {
	n := 0
	for _, v := range vectors {
		if _, ok := v.FuzzInput(); !ok {
			n++
		}
	}
	return n
}

// TestImportAllOrNothing: one bad case among good ones, and nothing is
// written.
func TestImportAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	good := New("Good", "rule/4", "hand", nil, []byte(`{}`), []byte(`{"a":"&lt;"}`), Options{}, Reference)
	wrong := New("Wrong", "rule/4", "hand", nil, []byte(`{}`), []byte(`{"a":"&gt;"}`), Options{}, Reference)
	wrong.SetResult(Result{Output: []byte(`{"a":"&gt;"}`)})
	var jsonl bytes.Buffer
	ExportJSONL([]*Vector{good, wrong}, &jsonl)
	path := filepath.Join(t.TempDir(), "team.jsonl")
	os.WriteFile(path, append(jsonl.Bytes(), "{not json\n"...), 0o644)
	sources, err := ReadJSONL(path)
	if err == nil || !strings.Contains(err.Error(), "team.jsonl:3") {
		t.Fatalf("ReadJSONL: %v, want an error naming line 3", err)
	}
	_, _, err = Import(dir, nil, sources, Reference)
	if err == nil || !strings.Contains(err.Error(), "team.jsonl:2") {
		t.Fatalf("Import: %v, want an error naming line 2", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "vectors")); !os.IsNotExist(err) {
		t.Fatal("Import wrote something")
	}
}

// TestReferenceErrorKinds maps normalize's errors to the corpus's kinds.
func TestReferenceErrorKinds(t *testing.T) {
	for _, tt := range []struct {
		schema, args string
		want         ErrorKind
	}{
		{`{"type":"lisst"}`, `{}`, ErrInvalidSchema},
		{`{}`, `[1]`, ErrNotObject},
		{`{}`, `{"a":`, ErrInvalidJSON},
		{`{}`, strings.Repeat("[", normalize.DefaultMaxDepth+1), ErrTooDeep},
	} {
		if got := Reference.Normalize(context.Background(), impl.Case{Schema: []byte(tt.schema), Args: []byte(tt.args), Options: Options{}}); got.Error != tt.want {
			t.Errorf("Reference.Normalize(%s, %.20s) = %+v, want error %s", tt.schema, tt.args, got, tt.want)
		}
	}
}

// TestAddSharedDirectory: two runners share a corpus directory, each with
// the list of vectors it read at its start. The one that comes second with
// the same finding, or the same case, writes nothing.
func TestAddSharedDirectory(t *testing.T) {
	dir := t.TempDir()
	finding := func(args string) *Vector {
		return New("Fuzzing finding 0123456789: wrong output", "found", "found", nil, []byte(`{}`), []byte(args), Options{}, Reference)
	}
	if _, added, err := Add(dir, nil, finding(`{"a":"&amp;"}`)); err != nil || !added {
		t.Fatalf("first runner: %v, %v", added, err)
	}
	// The second runner's minimal case of the same bucket differs a little.
	file, added, err := Add(dir, nil, finding(`{"b":"&lt;"}`))
	if err != nil || added || file != "vectors/found/fuzzing-finding-0123456789-wrong-output.json" {
		t.Fatalf("second runner, same finding: %q, %v, %v", file, added, err)
	}
	hand := New("A case", "rule/4", "hand", nil, []byte(`{}`), []byte(`{"c":"&amp;"}`), Options{}, Reference)
	Add(dir, nil, hand)
	if _, added, err := Add(dir, nil, New("A case", "rule/4", "hand", nil, []byte(`{}`), []byte(`{"c":"&amp;"}`), Options{}, Reference)); err != nil || added {
		t.Fatalf("second runner, same case: %v, %v", added, err)
	}
	vectors, err := Load(os.DirFS(dir))
	if err != nil || len(vectors) != 2 || len(Lint(vectors, Reference)) != 0 {
		t.Fatalf("%d vectors, %v, lint %v", len(vectors), err, Lint(vectors, Reference))
	}
	st, _ := os.Stat(filepath.Join(dir, vectors[0].File))
	if st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
}

// TestReplayOneRule: corpus replay and lint judge as check does
// (impl.Compare): an error of unspecified kind, all the protocol carries,
// matches a vector's error of any kind; an error where output is expected
// does not; a failure of the program is not judged.
func TestReplayOneRule(t *testing.T) {
	v := New("not an object", "reading/8", "hand", nil, []byte(`{}`), []byte(`[1]`), Options{}, Reference)
	if v.Error != ErrNotObject {
		t.Fatalf("the vector expects %v", v.Want())
	}
	unspecified := impl.Func("says error", func(ctx context.Context, c impl.Case) Result { return impl.Reject(impl.ErrUnspecified, "bad") })
	if o := Replay(v, unspecified); !o.Pass {
		t.Errorf("an unspecified error fails a not-object vector: %s", o.Msg)
	}
	w := New("an object", "rule/5", "hand", nil, []byte(`{}`), []byte(`{"a":1}`), Options{}, Reference)
	if o := Replay(w, unspecified); o.Pass || o.Failure != nil {
		t.Errorf("an error where output is expected: %+v", o)
	}
	crash := impl.Func("crashes", func(ctx context.Context, c impl.Case) Result { return impl.Fail(impl.ErrCrash, "exit 3") })
	if o := Replay(v, crash); o.Pass || !errors.Is(o.Failure, impl.ErrCrash) {
		t.Errorf("a crash: %+v", o)
	}
}

// TestDescription: a description made of a title and a tail is the title
// clipped so that the vector is valid however long the title (a root
// cause's title longer than a description may be once stopped toolnorm
// fuzz at its first finding), the tail whole, a short title whole.
func TestDescription(t *testing.T) {
	long := strings.Repeat("Every string that parses as JSON is replaced é ", 30)
	for _, title := range []string{"Short", long[:150], long[:200], long, strings.Repeat("é", 5000)} {
		d := Description(title, " (fuzzing bucket 0edc68f16b)")
		v := New(d, "found", "found", nil, []byte(`{}`), []byte(`{}`), Options{}, Reference)
		if p := Check(v); len(p) > 0 || !strings.HasSuffix(d, " (fuzzing bucket 0edc68f16b)") || !utf8.ValidString(d) {
			t.Errorf("title of %d bytes: %q: %v", len(title), d, p)
		}
		if len(title) < 150 && !strings.HasPrefix(d, title+" (") {
			t.Errorf("a short title is cut: %q", d)
		}
	}
}
