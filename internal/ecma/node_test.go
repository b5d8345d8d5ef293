package ecma

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"sync"
	"testing"
)

// nodeScript answers one JSON line per query line. A query
// {"p": pattern, "in": [inputs]} gets {"err": message} when
// `new RegExp(p, "u")` throws, else {"m": [...]}: for each input null (no
// match) or {"i": index in code points, "c": [match, captures (null when
// undefined)]}, as ECMA-262 finds it, and "v8": what V8's own test says
// of each input (they differ where V8 tries a match inside a surrogate
// pair, which the u flag rules out). A query {"prop": name} gets {"r": [[lo, hi], ...]}, the
// code points \p{name} matches (or {"err": message}), among all or
// those a query {"domain": [[lo, hi], ...]} named.
const nodeScript = `
const rl = require("readline").createInterface({ input: process.stdin, crlfDelay: Infinity });
let all = null;
const everything = () => {
  if (all === null) { const a = []; for (let c = 0; c <= 0x10ffff; c++) a.push(String.fromCodePoint(c)); all = a.join(""); }
  return all;
};
rl.on("line", (line) => {
  const q = JSON.parse(line);
  let out;
  if (q.domain !== undefined) {
    const a = [];
    for (const [lo, hi] of q.domain) for (let c = lo; c <= hi; c++) a.push(String.fromCodePoint(c));
    all = a.join("");
    out = { unicode: process.versions.unicode };
  } else if (q.prop !== undefined) {
    try {
      const re = new RegExp("\\p{" + q.prop + "}", "gu"), r = [];
      for (const m of everything().matchAll(re)) {
        const c = m[0].codePointAt(0);
        if (r.length > 0 && r[r.length - 1][1] === c - 1) r[r.length - 1][1] = c; else r.push([c, c]);
      }
      out = { r };
    } catch (e) { out = { err: String(e.message) }; }
  } else {
    let re = null, sticky = null;
    try { re = new RegExp(q.p, "u"); sticky = new RegExp(q.p, "uy"); } catch (e) { out = { err: String(e.message) }; }
    // ECMA-262's RegExpBuiltinExec tries a match at each code point (the
    // u flag), never inside a surrogate pair; V8's exec may (an empty
    // match, or a lookaround, where a pair is split): spec repeats the
    // spec's loop with a sticky copy, v8 says whether V8's own differs.
    const spec = (s) => {
      for (let i = 0; ; i += s.codePointAt(i) > 0xffff ? 2 : 1) {
        sticky.lastIndex = i;
        const m = sticky.exec(s);
        if (m !== null || i >= s.length) return m;
      }
    };
    if (re !== null) out = { m: (q.in || []).map((s) => {
      const m = spec(s);
      if (m === null) return null;
      return { i: [...s.slice(0, m.index)].length, c: Array.from(m, (x) => (x === undefined ? null : x)) };
    }), v8: (q.in || []).map((s) => re.test(s)) };
  }
  process.stdout.write(JSON.stringify(out) + "\n");
});
`

// nodeQuery is one question to node: a pattern and inputs, or a property.
type nodeQuery struct {
	Pattern string    `json:"p"`
	Inputs  []string  `json:"in,omitempty"`
	Prop    *string   `json:"prop,omitempty"`
	Domain  [][2]rune `json:"domain,omitempty"` // the characters later prop queries look at
}

// nodeMatch is what RegExp.prototype.exec returned for one input.
type nodeMatch struct {
	Index int       `json:"i"`
	Caps  []*string `json:"c"`
}

type nodeAnswer struct {
	Err     *string      `json:"err"`
	Matches []*nodeMatch `json:"m"`
	Ranges  [][2]rune    `json:"r"`
	V8      []bool       `json:"v8"`      // RegExp.prototype.test, V8's own
	Unicode string       `json:"unicode"` // node's Unicode version, to a domain query
}

// askNode puts the queries to one node process and returns its answers in
// order. Without node it skips the test, or fails it with TOOLNORM_CI=1.
func askNode(t testing.TB, qs []nodeQuery) []nodeAnswer {
	t.Helper()
	path, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("TOOLNORM_CI") == "1" {
			t.Fatal("node is not installed, and TOOLNORM_CI=1 makes that a failure")
		}
		t.Skip("node is not installed: the comparison with JavaScript's RegExp is skipped (TOOLNORM_CI=1 makes it a failure)")
	}
	cmd := exec.Command(path, "-e", nodeScript)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting node: %v", err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	var writeErr error
	go func() {
		defer wg.Done()
		w := bufio.NewWriter(stdin)
		enc := json.NewEncoder(w)
		for _, q := range qs {
			if writeErr = enc.Encode(q); writeErr != nil {
				break
			}
		}
		if err := w.Flush(); writeErr == nil {
			writeErr = err
		}
		stdin.Close()
	}()
	r := bufio.NewReaderSize(stdout, 1<<20)
	answers := make([]nodeAnswer, 0, len(qs))
	for range qs {
		line, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("node stopped answering after %d of %d queries: %v", len(answers), len(qs), err)
		}
		var a nodeAnswer
		if err := json.Unmarshal(line, &a); err != nil {
			t.Fatalf("node's answer %q: %v", line, err)
		}
		answers = append(answers, a)
	}
	io.Copy(io.Discard, stdout)
	wg.Wait()
	if err := cmd.Wait(); err != nil || writeErr != nil {
		t.Fatalf("node: %v (writing: %v)", err, writeErr)
	}
	return answers
}
