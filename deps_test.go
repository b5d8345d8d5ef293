package toolnorm_test

import (
	"os/exec"
	"strings"
	"testing"
)

// layers is the import order of toolnorm's packages, as go/build's
// deps_test.go states the standard library's: a package may import only
// packages of the layers before its own (and of its own layer where the
// line says so, with "<"). It is the design of the checks: impl is the hub
// that everything running checks imports, corpus is the vector format,
// running checks (internal/check) comes after everything it runs, and the
// command line only wires it up.
var layers = [][]string{
	{"internal/word", "internal/jsonraw", "internal/faults", "internal/display", "oracle"},
	{"internal/entity < internal/word", "internal/jsonvalue < internal/jsonraw"},
	{"normalize"},
	{"impl"},
	{"corpus", "harness", "fuzz", "properties/internal/mutants", "internal/diagnose"},
	{"internal/rootcause"},
	{"properties", "corpus/internal/genhtml5lib"},
	{"internal/check"},
	{"internal/cli"},
	{"cmd/toolnorm", "implementations"},
}

const module = "github.com/toolnorm/toolnorm/"

// TestLayers fails when an import breaks the layer order.
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
				continue
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
