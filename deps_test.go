package toolnorm_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// layers is the import order of toolnorm's packages, as go/build's
// deps_test.go states the standard library's: a package may import only
// packages of the layers before its own (and of its own layer where the
// entry says so, with "<"). Each layer says why it stands where it does.
var layers = [][]string{
	// The leaves: text and JSON primitives, ECMA-262 pattern syntax, and
	// the second opinions (oracle), which share nothing with the reference
	// they judge but the one definition of which patterns are valid; and
	// the hostile inputs of issue 34, which any package's tests may build;
	// and the reader of a Go program's own coverage counters, for Serve.
	{"internal/word", "internal/jsonraw", "internal/display", "internal/ecma", "oracle < internal/ecma", "internal/hostile", "internal/cputime", "internal/gocover"},
	// The adapter kits, files embedded for toolnorm init to write out.
	{"kits"},
	{"internal/entity < internal/word", "internal/jsonvalue < internal/jsonraw"},
	// What the analysis of findings needs that knows nothing of the
	// reference: the one minimizer of counterexamples, and the rough
	// reading of what a schema declares at a position of the arguments;
	// and the search of schemas (issue 36), which draws and mutates cases
	// and names the features they exercise without reading the reference,
	// so that the search cannot share its bugs.
	{"internal/minimize", "internal/schemaview", "internal/schemagen"},
	// The library MCP servers link.
	{"normalize"},
	// The hub every check imports: Case, Options, Result, Compare.
	{"impl"},
	// The test doubles of implementations, for tests only (testOnly).
	{"impl/impltest"},
	// What a check is made of: the vector format, the protocol, the
	// fuzz targets, the catalogue of deviations (each the reference with
	// one change of behaviour), the classifier that names what differs in
	// one counterexample, and the coalescer that sends several
	// goroutines' requests as shared batches.
	{"corpus", "harness", "fuzz", "check/internal/deviation", "check/internal/diagnose", "check/internal/coalesce"},
	// The properties, and the explanation of findings by root causes.
	{"properties", "corpus/internal/genhtml5lib", "check/internal/explain"},
	// The engine and its report model, after everything it runs.
	{"check"},
	// The command's internals: rendering reads the report model only;
	// init writes the kits and the corpus into an implementer's repository.
	{"cmd/toolnorm/internal/render", "cmd/toolnorm/internal/faults", "cmd/toolnorm/internal/initcmd"},
	{"cmd/toolnorm/internal/cli"},
	// The commands; the bug zoo's scorer, which reads reports as JSON and
	// imports nothing of the module, and its differential test's reference.
	{"cmd/toolnorm", "implementations", "zoo/score", "zoo/difftest"},
}

// belowNormalize is why every package directly under the root internal/
// sits in a layer before normalize's: the root internal/ holds what the
// library is built of and what any layer may use; a package that needs
// the reference, the hub or a check lives beside what uses it (as
// check/internal/diagnose does), so that its place shows its layer.
const belowNormalize = "the root internal/ holds only what sits below normalize: move it under the package that uses it"

// forbidden are imports the layers would allow but the design does not,
// each with why. A key names a package; a value, the module's packages
// (by prefix) it must not import.
var forbidden = map[string]struct {
	prefixes []string
	except   []string // packages the prefixes would forbid, allowed all the same
	why      string
}{
	"check":  {[]string{"cmd/"}, nil, "the engine never imports a renderer or the command: a new report format touches one package"},
	"oracle": {[]string{""}, []string{"internal/ecma"}, "a second opinion imports nothing of the module but the syntax of patterns (what ECMA-262 refuses), so it cannot share a bug with the reference"},
	"impl":   {[]string{"corpus", "harness", "properties", "check", "fuzz"}, nil, "the hub imports only the reference normalizer and the JSON tree"},
}

// testOnly are packages only tests import, with why.
var testOnly = map[string]string{
	"impl/impltest":    "test doubles of implementations, as net/http/httptest is: no program links it",
	"internal/hostile": "the hostile inputs of issue 34, for benchmarks and fuzz targets: no program links them",
	"internal/cputime": "the CPU time a benchmark reports beside wall time: no program links it",
}

// thirdParty is every import from outside the module and the standard
// library a package may make, with why. normalize, which MCP servers link,
// imports none (its ECMA-262 patterns are internal/ecma, which has a
// deterministic step budget); nothing but cli imports cobra.
var thirdParty = map[string][]string{
	"oracle":     {"golang.org/x/net/html"},
	"properties": {"pgregory.net/rapid"},
	"check":      {"pgregory.net/rapid"}, // the fuzzer draws cases with the properties' generators
	// The deviation "validates after repair" judges the repaired value
	// with a JSON Schema validator, as an implementation that validates
	// does: a validator of its own, not the reference's reading.
	"check/internal/deviation":  {"github.com/santhosh-tekuri/jsonschema/v6", "github.com/santhosh-tekuri/jsonschema/v6/kind"},
	"cmd/toolnorm/internal/cli": {"github.com/spf13/cobra", "github.com/spf13/pflag", "golang.org/x/term"},
}

const module = "github.com/toolnorm/toolnorm/"

// TestLayers fails when an import breaks the layer order, a forbidden
// import, or the third-party allowlist.
func TestLayers(t *testing.T) {
	layer := map[string]int{}
	sameOK := map[string]map[string]bool{}
	for i, l := range layers {
		for _, entry := range l {
			name, deps, _ := strings.Cut(entry, " < ")
			layer[name] = i
			sameOK[name] = map[string]bool{}
			for _, d := range strings.Fields(deps) {
				sameOK[name][d] = true
			}
		}
	}
	if _, ok := layer["normalize"]; !ok {
		t.Fatal("normalize is in no layer")
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module)
		if pkg == strings.TrimSuffix(module, "/") || strings.HasPrefix(pkg, "internal/entity/internal") {
			continue // this test's own package; a go:generate program
		}
		lp, ok := layer[pkg]
		if !ok {
			t.Errorf("%s is in no layer: add it to layers", pkg)
			continue
		}
		if name, ok := strings.CutPrefix(pkg, "internal/"); ok && !strings.Contains(name, "/") && lp >= layer["normalize"] {
			t.Errorf("%s (layer %d) is not below normalize (layer %d): %s", pkg, lp, layer["normalize"], belowNormalize)
		}
		for _, imp := range f[1:] {
			dep, ours := strings.CutPrefix(imp, module)
			if !ours {
				if first, _, _ := strings.Cut(imp, "/"); strings.Contains(first, ".") && !slices.Contains(thirdParty[pkg], imp) {
					t.Errorf("%s imports %s, from outside the module and the standard library: not in thirdParty", pkg, imp)
				}
				continue
			}
			if why, ok := testOnly[dep]; ok {
				t.Errorf("%s imports %s outside its tests: %s", pkg, dep, why)
			}
			if rule, ok := forbidden[pkg]; ok {
				for _, p := range rule.prefixes {
					if strings.HasPrefix(dep, p) && !slices.Contains(rule.except, dep) {
						t.Errorf("%s imports %s: %s", pkg, dep, rule.why)
					}
				}
			}
			ld, ok := layer[dep]
			switch {
			case !ok:
				t.Errorf("%s imports %s, which is in no layer", pkg, dep)
			case ld > lp || ld == lp && !sameOK[pkg][dep]:
				t.Errorf("%s (layer %d) imports %s (layer %d): the layers forbid it", pkg, lp, dep, ld)
			}
		}
	}
}

// namesOf are the packages of implementations/ and the examples of
// examples/, as the code might name them; namedBy, the packages whose Go
// files (tests and comments included) must not. The analysis of findings
// says the behaviour it looks for ("a `$ref` other than a `#/` pointer is
// not followed"), never which program showed it: a behaviour named after
// one program is a method fitted to known examples, and a case that asked
// for a behaviour is a vector or a test, not a name in the code.
var (
	namesOf = regexp.MustCompile(`(?i)\b(cline|openclaw|mastra|qwen|n8n|notion(hq)?|ai-sdk)\b|@ai-sdk|\bthe (PHP|Node\.js|Python) example`)
	namedBy = []string{"check/internal/explain", "check/internal/diagnose", "check/internal/deviation"}
)

// TestNoPackageNames fails when a Go file of namedBy names one of the
// implementations or examples (namesOf).
func TestNoPackageNames(t *testing.T) {
	for _, dir := range namedBy {
		files, err := filepath.Glob(filepath.Join(filepath.FromSlash(dir), "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(b), "\n") {
				if m := namesOf.FindString(line); m != "" {
					t.Errorf("%s:%d names %q: say the behaviour instead", filepath.ToSlash(f), i+1, m)
				}
			}
		}
	}
}
