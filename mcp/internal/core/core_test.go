package core

import (
	"bytes"
	"context"
	"log/slog"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/normalize"
)

func TestMayNeedRepair(t *testing.T) {
	tests := []struct {
		args string
		want bool
	}{
		{`{}`, false},
		{`{"ids":[1,2],"opts":{"a":true}}`, false}, // brackets outside strings are structure
		{`{"q":"plain text, 1.0 and \"quotes\"\n"}`, false},
		{`{"q":"a \\ backslash and \/ slash and \u00e9"}`, false},
		{`{"ids":"[1,2]"}`, true},
		{`{"opts":"{\"a\":1}"}`, true},
		{`{"t":"Ember &amp; Oak"}`, true},
		{`{"t":"Ember \u0026amp; Oak"}`, true}, // an escaped ampersand is an ampersand
		{`{"t":"\u005B1]"}`, true},             // an escaped bracket, upper-case hex
		{`{"t":"\u007b}"}`, true},
		{`{"a&b":1}`, true},  // keys too: a false positive costs only time
		{`{"t":"\u00`, true}, // cut inside an escape: let the normalizer judge
		{`{"t":"\`, true},
		{`"[1]"`, true},
		{`[1,{"a":2}]`, false},
	}
	for _, tt := range tests {
		if got := MayNeedRepair([]byte(tt.args)); got != tt.want {
			t.Errorf("MayNeedRepair(%s) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

// TestMayNeedRepairCorpus holds the fast path to the reference on every
// corpus vector: where MayNeedRepair says no repair can apply, the
// reference changes nothing (or rejects the input, which the middleware
// also passes through).
func TestMayNeedRepairCorpus(t *testing.T) {
	vectors, err := corpus.Load(corpus.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	skipped := 0
	for _, v := range vectors {
		args := v.ArgumentsText()
		if MayNeedRepair(args) {
			continue
		}
		skipped++
		s, err := normalize.Compile(v.SchemaText())
		if err != nil {
			continue
		}
		out, err := s.Normalize(args)
		if err == nil && !bytes.Equal(out, args) {
			t.Errorf("%s: MayNeedRepair(%s) is false, but the reference gives %s", v.File, args, out)
		}
	}
	if skipped < 50 {
		t.Errorf("only %d of %d vectors need no repair: the test shows little", skipped, len(vectors))
	}
}

// FuzzMayNeedRepair: arguments the fast path lets through unexamined are
// unchanged by the reference under a schema that declares arrays and
// objects everywhere it can.
func FuzzMayNeedRepair(f *testing.F) {
	for _, s := range []string{`{"a":"[1]"}`, `{"a":"x","b":[{"c":"y"}]}`, `{"a":"\u0026lt;"}`, `{"a":1e400}`} {
		f.Add(s)
	}
	schema, err := normalize.Compile([]byte(`{"type":"object","additionalProperties":{"type":["array","object"],"items":{"type":"object"},"additionalProperties":{"type":"array"}}}`))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, args string) {
		if MayNeedRepair([]byte(args)) {
			return
		}
		out, err := schema.Normalize([]byte(args))
		if err == nil && string(out) != args {
			t.Errorf("MayNeedRepair(%q) is false, but the reference gives %q", args, out)
		}
	})
}

type recorder struct {
	tool    string
	repairs []normalize.Repair
	total   int
	calls   int
}

func (r *recorder) onRepair(_ context.Context, tool string, repairs []normalize.Repair, total int) {
	r.tool, r.repairs, r.total = tool, repairs, total
	r.calls++
}

func TestCompiledNormalize(t *testing.T) {
	const schema = `{"type":"object","properties":{"ids":{"type":"array"},"q":{"type":"string"}}}`
	tests := []struct {
		name, schema, args string
		want               string // "" means the arguments pass through as they are
		pointers           []string
		unusable           bool
	}{
		{name: "stringified array", schema: schema, args: `{"ids":"[1,2]","q":"[3]"}`, want: `{"ids":[1,2],"q":"[3]"}`, pointers: []string{"/ids"}},
		{name: "entities", schema: schema, args: `{"q":"a &amp;amp; b"}`, want: `{"q":"a & b"}`, pointers: []string{"/q"}},
		{name: "nothing to repair", schema: schema, args: `{"ids":[1],"q":"x"}`},
		{name: "not an object", schema: schema, args: `[1]`},
		{name: "not JSON", schema: schema, args: `{"ids":`},
		{name: "unusable schema", schema: `{"$ref":"#/nowhere"}`, args: `{"ids":"[1,2]","q":"&amp;"}`, unusable: true},
		{name: "schema not JSON", schema: `{`, args: `{"q":"&amp;"}`, unusable: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rec recorder
			var log bytes.Buffer
			cfg := &Config{OnRepair: rec.onRepair, Logger: slog.New(slog.NewTextHandler(&log, nil)), Library: "test"}
			c := cfg.Compile(context.Background(), "search", []byte(tt.schema))
			out, changed := c.Normalize(context.Background(), "search", []byte(tt.args))
			want := tt.want
			if want == "" {
				want = tt.args
			}
			if string(out) != want || changed != (tt.want != "") {
				t.Errorf("Normalize(%s) = %s, %v; want %s, %v", tt.args, out, changed, want, tt.want != "")
			}
			var got []string
			for _, r := range rec.repairs {
				got = append(got, r.Pointer.String())
			}
			if strings.Join(got, " ") != strings.Join(tt.pointers, " ") || (tt.pointers != nil) != (rec.calls == 1) || rec.calls > 1 {
				t.Errorf("OnRepair got %q in %d calls, want %q", got, rec.calls, tt.pointers)
			}
			if tt.pointers != nil && rec.tool != "search" {
				t.Errorf("OnRepair got tool %q, want search", rec.tool)
			}
			if c.Usable() == tt.unusable {
				t.Errorf("Usable() = %v, want %v", c.Usable(), !tt.unusable)
			}
			logged := log.String()
			if c.Usable() && logged != "" {
				t.Errorf("a usable schema logged %q", logged)
			}
			if !c.Usable() && (strings.Count(logged, "\n") != 1 || !strings.Contains(logged, `tool=search`) || !strings.Contains(logged, "level=WARN")) {
				t.Errorf("an unusable schema logged %q, want one warning naming the tool", logged)
			}
		})
	}
}

func TestNormalizeOptions(t *testing.T) {
	cfg := &Config{Options: []normalize.Option{normalize.WithMaxPasses(1)}}
	c := cfg.Compile(context.Background(), "t", []byte(`{}`))
	out, _ := c.Normalize(context.Background(), "t", []byte(`{"q":"&amp;amp;"}`))
	if string(out) != `{"q":"&amp;"}` {
		t.Errorf("with one pass: %s, want {\"q\":\"&amp;\"}", out)
	}
}

func TestLogRepairs(t *testing.T) {
	var log bytes.Buffer
	f := LogRepairs(slog.New(slog.NewTextHandler(&log, nil)), slog.LevelInfo)
	f(context.Background(), "search", []normalize.Repair{
		{Pointer: normalize.Pointer{}.AppendToken("ids"), Kind: normalize.JSONDecoded, Shape: "array"},
		{Pointer: normalize.Pointer{}.AppendToken("q"), Kind: normalize.EntitiesDecoded, Passes: 2, Fixpoint: true},
	}, 2)
	got := log.String()
	for _, want := range []string{"level=INFO", `msg="toolnorm: repaired tool arguments"`, "tool=search", "repairs=2", `pointers="[/ids /q]"`, `kinds="[json-decoded entities-decoded]"`} {
		if !strings.Contains(got, want) {
			t.Errorf("log %q lacks %q", got, want)
		}
	}
}

// longKeyLeaves is one member whose key is key bytes long above leaves
// strings to repair: issue 34's remote denial of service (260 KB of it
// took 6 GB in the middleware).
func longKeyLeaves(key, leaves int) []byte {
	return []byte(`{"` + strings.Repeat("k", key) + `":[` + strings.Repeat(`"&amp;",`, leaves-1) + `"&amp;"]}`)
}

// allocated returns how many bytes f allocates on the heap, all told.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestNormalizeBounded: without OnRepair, no report is made; with it, the
// report lists at most DefaultMaxRepairs repairs and counts the rest, and
// LogRepairs's line is short and spells no pointer whole: a call costs
// about what normalizing it does, however many repairs it holds. The
// middleware made a report for every call, a pointer string per repair,
// and LogRepairs logged every pointer: a key of 16 KB above 6,000 leaves
// (64 KB) logged 98 MB and allocated 1 GB. Then it listed every repair
// (56 bytes each and their pointers, 12 bytes a byte of these arguments,
// 105 MB of a 10 MB call), and LogRepairs spelt out five pointers whole
// to cut them (a 256 KB key five times).
func TestNormalizeBounded(t *testing.T) {
	const key, leaves = 256 << 10, 98_000
	args := longKeyLeaves(key, leaves)
	want := []byte(`{"` + strings.Repeat("k", key) + `":[` + strings.Repeat(`"&",`, leaves-1) + `"&"]}`)
	for _, tc := range []struct {
		name     string
		onRepair bool
		limit    float64 // bytes allocated per byte of arguments
	}{{"without OnRepair", false, 1.2}, {"with LogRepairs", true, 1.6}} {
		var log bytes.Buffer
		cfg := &Config{}
		if tc.onRepair {
			cfg.OnRepair = LogRepairs(slog.New(slog.NewTextHandler(&log, nil)), slog.LevelInfo)
		}
		c := cfg.Compile(context.Background(), "t", []byte(`{}`))
		var out []byte
		var changed bool
		n := allocated(func() { out, changed = c.Normalize(context.Background(), "t", args) })
		if !changed || !bytes.Equal(out, want) {
			t.Fatalf("%s: Normalize = %.40s, %v", tc.name, out, changed)
		}
		ratio := float64(n) / float64(len(args))
		t.Logf("%s: %d bytes of arguments, %d allocated (%.1fx), %d logged", tc.name, len(args), n, ratio, log.Len())
		if ratio > tc.limit {
			t.Errorf("%s: allocated %.1f times the arguments, want at most %v", tc.name, ratio, tc.limit)
		}
		if log.Len() > 2000 {
			t.Errorf("%s: logged %d bytes, want a short line", tc.name, log.Len())
		}
		if tc.onRepair && (!strings.Contains(log.String(), "repairs=98000 ") || strings.Count(log.String(), "more bytes") != LoggedRepairs) {
			t.Errorf("%s: logged %.600s", tc.name, log.String())
		}
	}
}

// TestMaxRepairs: OnRepair is given the first MaxRepairs repairs and how
// many there were; 0 is DefaultMaxRepairs, below 0 all.
func TestMaxRepairs(t *testing.T) {
	args := longKeyLeaves(3, DefaultMaxRepairs+5)
	for _, tc := range []struct{ max, listed int }{{2, 2}, {0, DefaultMaxRepairs}, {-1, DefaultMaxRepairs + 5}} {
		var rec recorder
		cfg := &Config{OnRepair: rec.onRepair, MaxRepairs: tc.max}
		c := cfg.Compile(context.Background(), "t", []byte(`{}`))
		if _, changed := c.Normalize(context.Background(), "t", args); !changed {
			t.Fatal("not repaired")
		}
		if len(rec.repairs) != tc.listed || rec.total != DefaultMaxRepairs+5 || rec.calls != 1 {
			t.Errorf("MaxRepairs %d: %d repairs given of %d, in %d calls; want %d of %d", tc.max, len(rec.repairs), rec.total, rec.calls, tc.listed, DefaultMaxRepairs+5)
		}
		if len(rec.repairs) > 1 && rec.repairs[1].Pointer.String() != "/kkk/1" {
			t.Errorf("MaxRepairs %d: the second repair is at %s, want /kkk/1", tc.max, rec.repairs[1].Pointer)
		}
	}
}

// TestClipPointer: a pointer cut as its text would be, with the count of
// what was cut, spelt out no further than it is shown.
func TestClipPointer(t *testing.T) {
	p := normalize.Pointer{}.AppendToken("a~b/c").AppendToken(strings.Repeat("é", 100)).AppendToken("7")
	full := p.String()
	for _, n := range []int{0, 1, 5, 9, 10, 11, 12, 13, 50, len(full) - 1, len(full), 1000} {
		got := clipPointer(p, n)
		if n >= len(full) {
			if got != full {
				t.Errorf("clipPointer(%d) = %q, want %q", n, got, full)
			}
			continue
		}
		shown, _, ok := strings.Cut(got, "...(")
		if !ok || !strings.HasPrefix(full, shown) || len(shown) > n || !utf8.ValidString(shown) || strings.HasSuffix(shown, "~") ||
			!strings.HasSuffix(got, "...("+strconv.Itoa(len(full)-len(shown))+" more bytes)") {
			t.Errorf("clipPointer(%d) = %q, of %q", n, got, full)
		}
	}
	key := strings.Repeat("k", 1<<20)
	long := normalize.Pointer{}.AppendToken(key).AppendToken("0")
	if n := allocated(func() { _ = clipPointer(long, LoggedPointerBytes) }); n > 4096 {
		t.Errorf("clipPointer of a 1 MB pointer allocated %d bytes", n)
	}
}
