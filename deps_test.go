package toolnorm_test

import (
	"os/exec"
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
	// the hostile inputs of issue 34, which any package's tests may build.
	{"internal/word", "internal/jsonraw", "internal/display", "internal/ecma", "oracle < internal/ecma", "internal/hostile"},
	// The adapter kits, files embedded for toolnorm init to write out.
	{"kits"},
	{"internal/entity < internal/word", "internal/jsonvalue < internal/jsonraw"},
	// The library MCP servers link, and the one minimizer of findings.
	{"normalize", "internal/minimize"},
	// The hub every check imports: Case, Options, Result, Compare.
	{"impl"},
	// What a check is made of: the vector format, the protocol, the
	// fuzz targets, the broken normalizers the properties must catch, the
	// classifier that names what differs in one counterexample, and the
	// coalescer that sends several goroutines' requests as shared batches,
	// and the recording implementation their tests drive (impltest).
	{"corpus", "harness", "fuzz", "properties/internal/mutants", "internal/diagnose", "internal/coalesce", "internal/impltest"},
	// The properties, and the grouping of findings into root causes.
	{"properties", "corpus/internal/genhtml5lib", "internal/rootcause"},
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
	"internal/impltest": "a recording implementation for tests, as net/http/httptest is: no program links it",
	"internal/hostile":  "the hostile inputs of issue 34, for benchmarks and fuzz targets: no program links them",
}

// thirdParty is every import from outside the module and the standard
// library a package may make, with why. normalize, which MCP servers link,
// imports none (its ECMA-262 patterns are internal/ecma, which has a
// deterministic step budget); nothing but cli imports cobra.
var thirdParty = map[string][]string{
	"oracle":                    {"golang.org/x/net/html"},
	"properties":                {"pgregory.net/rapid"},
	"check":                     {"pgregory.net/rapid"}, // the fuzzer draws cases with the properties' generators
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
