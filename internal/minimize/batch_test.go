package minimize_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/internal/minimize"
)

// TestMinimizeBatchIsSerial holds the batched minimizer to the serial one
// on random cases and random predicates that depend on the case alone:
// the same case, the same cut, and the candidates the serial minimizer
// tries are those of the batches up to the first that fails in each.
func TestMinimizeBatchIsSerial(t *testing.T) {
	long := func(_, a []byte) bool { return len(a) >= 20*1006 } // no string of it may shrink
	var b strings.Builder
	b.WriteString("{")
	for i := range 20 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "%q:%q", string(rune('a'+i)), text(i))
	}
	b.WriteString("}")
	type tcase struct {
		name, schema, args string
		fails              func(schema, args []byte) bool
	}
	cases := []tcase{{"the try budget", `{}`, b.String(), long}}
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 7))
		schema, args := randomCase(rng)
		cases = append(cases, tcase{fmt.Sprint("seed ", seed), schema, args, randomPredicate(rng)})
	}
	for _, tc := range cases {
		var serial []minimize.Candidate
		s1, a1, cut1 := minimize.MinimizeCut(context.Background(), []byte(tc.schema), []byte(tc.args), func(s, a []byte) bool {
			serial = append(serial, minimize.Candidate{Schema: s, Args: a})
			return tc.fails(s, a)
		})
		for _, all := range []bool{true, false} {
			var tried []minimize.Candidate
			batches, most := 0, 0
			s2, a2, cut2 := minimize.MinimizeBatch(context.Background(), []byte(tc.schema), []byte(tc.args), func(cs []minimize.Candidate) int {
				batches, most = batches+1, max(most, len(cs))
				first := -1
				for i, c := range cs {
					if first < 0 || all {
						if tc.fails(c.Schema, c.Args) && first < 0 {
							first = i
						}
					}
				}
				if first >= 0 {
					tried = append(tried, cs[:first+1]...)
				} else {
					tried = append(tried, cs...)
				}
				return first
			})
			if string(s1) != string(s2) || string(a1) != string(a2) || cut1 != cut2 {
				t.Fatalf("%s: serial %s %s (cut %v), batched %s %s (cut %v)", tc.name, s1, a1, cut1, s2, a2, cut2)
			}
			if !slices.EqualFunc(serial, tried, func(x, y minimize.Candidate) bool {
				return string(x.Schema) == string(y.Schema) && string(x.Args) == string(y.Args)
			}) {
				t.Fatalf("%s: the serial minimizer tried %d candidates, the batches %d up to each kept one", tc.name, len(serial), len(tried))
			}
			if len(serial) > 40 && (batches >= len(serial) || most > minimize.MaxBatch) {
				t.Errorf("%s: %d candidates in %d batches of at most %d", tc.name, len(serial), batches, most)
			}
		}
	}
}

// randomCase is a schema and arguments with something for every step:
// members, arrays, keys, strings with references and JSON text, numbers,
// subschemas with branches and references; now and then text that is
// not JSON.
func randomCase(rng *rand.Rand) (schema, args string) {
	var value func(depth int) string
	value = func(depth int) string {
		switch k := rng.IntN(7); {
		case k == 0 && depth < 3:
			var parts []string
			for range rng.IntN(4) {
				parts = append(parts, value(depth+1))
			}
			return "[" + strings.Join(parts, ",") + "]"
		case k == 1 && depth < 3:
			return object(rng, depth+1, value)
		case k == 2:
			return fmt.Sprintf("%d.%d", rng.IntN(100000), rng.IntN(100))
		case k == 3:
			return `"[1,{\"a\":\"x&amp;\"},2]"`
		case k == 4:
			return `"{&quot;k&quot;:[1,2]}"`
		default:
			return fmt.Sprintf("%q", []string{"plain text", "a &amp; b &lt;c&gt;", "&#38;amp;", "é&eacute;ü"}[rng.IntN(4)])
		}
	}
	args = object(rng, 0, value)
	sub := func() string {
		return []string{`{"type":"array","items":{"type":"integer"}}`, `{"anyOf":[{"type":"null"},{"type":"object","title":"t"}]}`,
			`{"$ref":"#/$defs/d","description":"x"}`, `{"type":"string","minLength":2}`, `{}`}[rng.IntN(5)]
	}
	schema = `{"type":"object","properties":{"k0":` + sub() + `,"k1":` + sub() + `,"long key":` + sub() + `},"required":["k0"],"$defs":{"d":{"type":"object","properties":{"a":{"type":"array"}}}}}`
	if rng.IntN(8) == 0 {
		args = strings.Replace(args, ",", ",,", 1) + " trailing"
	}
	if rng.IntN(12) == 0 {
		schema = schema[:len(schema)-3]
	}
	return schema, args
}

func object(rng *rand.Rand, depth int, value func(int) string) string {
	keys := []string{"k0", "k1", "long key", "&amp;", "é"}
	var parts []string
	for i := range rng.IntN(4) + 1 {
		parts = append(parts, fmt.Sprintf("%q:%s", keys[(i+rng.IntN(2))%len(keys)], value(depth)))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// randomPredicate fails on a deterministic share of the cases, drawn by a
// hash of the case and a salt, sometimes only while a piece of the case
// stays.
func randomPredicate(rng *rand.Rand) func(schema, args []byte) bool {
	salt, share := rng.Uint64(), rng.IntN(4)+2
	need := []string{"", "&", `"k`, "[", "1"}[rng.IntN(5)]
	return func(s, a []byte) bool {
		h := fnv.New64a()
		fmt.Fprint(h, salt)
		h.Write(s)
		h.Write([]byte{0})
		h.Write(a)
		return h.Sum64()%uint64(share) != 0 && strings.Contains(string(a), need)
	}
}

// TestNoCandidateTwice: a candidate tried once, and found not to fail, is
// not tried again later in the same minimization (its answer is known),
// whether a later pass or another step makes it again. The serial
// minimizer's predicate never sees the same case twice, and the batched
// one is never sent a case it was sent before and did not keep.
func TestNoCandidateTwice(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 7))
		schema, args := randomCase(rng)
		fails := randomPredicate(rng)
		seen := map[string]bool{}
		minimize.MinimizeCut(context.Background(), []byte(schema), []byte(args), func(s, a []byte) bool {
			k := string(s) + "\x00" + string(a)
			if seen[k] {
				t.Fatalf("seed %d: %s %s tried twice", seed, s, a)
			}
			seen[k] = true
			return fails(s, a)
		})
		sent := map[string]bool{}
		minimize.MinimizeBatch(context.Background(), []byte(schema), []byte(args), func(cs []minimize.Candidate) int {
			first := -1
			for i, c := range cs {
				k := string(c.Schema) + "\x00" + string(c.Args)
				if sent[k] {
					t.Fatalf("seed %d: batched: %s %s sent again", seed, c.Schema, c.Args)
				}
				if first < 0 {
					if fails(c.Schema, c.Args) {
						first = i
					} else {
						sent[k] = true // judged, and not kept
					}
				}
			}
			return first
		})
	}
}
