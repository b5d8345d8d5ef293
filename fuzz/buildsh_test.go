package fuzz

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/corpus"
)

// notBuilt are the native fuzz targets .clusterfuzzlite/build.sh leaves out
// (its skip_target lines), each with what its function calls that
// go-118-fuzz-build cannot run: rapid.MakeFuzz returns a func(*testing.T,
// []byte) of the standard testing package, and go-118-fuzz-build's f.Fuzz
// calls the function it is given with its own *testing.T, through reflect,
// which panics on every input.
var notBuilt = map[string]string{
	"github.com/toolnorm/toolnorm/fuzz FuzzProperties": "rapid.MakeFuzz",
	// Not what they call: an argument of a type the seed corpora do not
	// encode (corpus.SeedTarget's Params).
	"github.com/toolnorm/toolnorm/normalize FuzzHostile":        "uint32",
	"github.com/toolnorm/toolnorm/normalize FuzzCompileHostile": "uint32",
	"github.com/toolnorm/toolnorm/internal/gocover FuzzParse":   "uint32",
}

// A buildTarget is one build_target line of build.sh.
type buildTarget struct {
	pkg, fn, binary string
	line            int
}

// TestBuildShTargets holds .clusterfuzzlite/build.sh, which OSS-Fuzz and
// ClusterFuzzLite run, to the code: every native fuzz target is built or
// skipped for a reason notBuilt knows, none twice; binary names are unique
// and follow the rule build.sh states; the targets the seed corpora are for
// (corpus.FuzzTargets) are built under their own names, which `toolnorm
// corpus export --format ossfuzz` gives the zips; and the lines build.sh
// patches are there.
func TestBuildShTargets(t *testing.T) {
	root, module := moduleRoot(t)
	built, skipped, loaders := parseBuildSh(t, filepath.Join(root, ".clusterfuzzlite", "build.sh"))
	code := fuzzTargetsInCode(t, root, module)

	seen := map[string]int{}
	binaries := map[string]string{}
	for _, b := range built {
		key := b.pkg + " " + b.fn
		if prev, ok := seen[key]; ok {
			t.Errorf("build.sh:%d builds %s again (line %d)", b.line, key, prev)
		}
		seen[key] = b.line
		if prev, ok := binaries[b.binary]; ok {
			t.Errorf("build.sh:%d: binary name %s is taken by %s", b.line, b.binary, prev)
		}
		binaries[b.binary] = key
		want := path.Base(b.pkg) + "_" + b.fn
		if b.pkg == module+"/fuzz" {
			want = b.fn
		}
		if b.binary != want {
			t.Errorf("build.sh:%d: %s is built as %s, want %s (build.sh's naming rule)", b.line, key, b.binary, want)
		}
		body, ok := code[key]
		switch {
		case !ok:
			t.Errorf("build.sh:%d builds %s, which is not a fuzz target in the code", b.line, key)
		case strings.Contains(body, "rapid.MakeFuzz"):
			t.Errorf("build.sh:%d builds %s, which calls rapid.MakeFuzz: go-118-fuzz-build cannot run it; make it a skip_target and add it to notBuilt", b.line, key)
		}
	}

	for key, line := range skipped {
		if _, ok := seen[key]; ok {
			t.Errorf("build.sh:%d skips %s, which it builds at line %d", line, key, seen[key])
		}
		why, known := notBuilt[key]
		if !known {
			t.Errorf("build.sh:%d skips %s, which notBuilt does not know: say in notBuilt why go-118-fuzz-build cannot run it", line, key)
			continue
		}
		body, ok := code[key]
		switch {
		case !ok:
			t.Errorf("build.sh:%d skips %s, which is not a fuzz target in the code", line, key)
		case !strings.Contains(body, why):
			t.Errorf("build.sh:%d skips %s for %s, which it no longer calls: build it", line, key, why)
		}
	}
	for key := range notBuilt {
		if _, ok := skipped[key]; !ok {
			t.Errorf("notBuilt has %s, which build.sh does not skip", key)
		}
	}

	var missing []string
	for key := range code {
		if _, ok := seen[key]; !ok {
			if _, ok := skipped[key]; !ok {
				missing = append(missing, key)
			}
		}
	}
	sort.Strings(missing)
	for _, key := range missing {
		t.Errorf("fuzz target %s is neither built nor skipped by .clusterfuzzlite/build.sh: add a build_target line", key)
	}

	for _, target := range corpus.FuzzTargets {
		key := module + "/fuzz " + target
		if binaries[target] != key {
			t.Errorf("corpus.FuzzTargets has %s, whose seed corpus is %s_seed_corpus.zip: build.sh must build %s as %s", target, target, key, target)
		}
	}

	for _, l := range loaders {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(l.file)))
		if err != nil {
			t.Errorf("build.sh:%d: %v", l.line, err)
			continue
		}
		want := fmt.Sprintf("func %s(f *testing.F) {", l.fn)
		if !hasLine(string(data), want) {
			t.Errorf("build.sh:%d patches %q in %s, which has no such line", l.line, want, l.file)
		}
	}
	if len(built) == 0 {
		t.Error("build.sh builds no target")
	}
}

// moduleRoot returns the directory of go.mod above the package, and the
// module path.
func moduleRoot(t *testing.T) (dir, module string) {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return dir, strings.Trim(strings.TrimSpace(m), `"`)
		}
	}
	t.Fatal("go.mod has no module line")
	return "", ""
}

type seedLoader struct {
	file, fn string
	line     int
}

var (
	buildShVar    = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)=(\S+)$`)
	buildShBuild  = regexp.MustCompile(`^build_target\s+(\S+)\s+(\S+)\s+(\S+)\s*$`)
	buildShSkip   = regexp.MustCompile(`^skip_target\s+(\S+)\s+(\S+)\s+"[^"]+"\s*$`)
	buildShLoader = regexp.MustCompile(`^skip_seed_loader\s+(\S+)\s+(\S+)\s*$`)
)

// parseBuildSh reads build.sh's build_target, skip_target and
// skip_seed_loader lines (the calls at the top level, not the function
// definitions), with its simple NAME=value variables expanded.
func parseBuildSh(t *testing.T, name string) (built []buildTarget, skipped map[string]int, loaders []seedLoader) {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	vars := map[string]string{}
	expand := func(s string) string {
		return os.Expand(s, func(v string) string {
			if x, ok := vars[v]; ok {
				return x
			}
			t.Errorf("build.sh: $%s is not a variable this test knows", v)
			return ""
		})
	}
	skipped = map[string]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := buildShVar.FindStringSubmatch(line); m != nil {
			vars[m[1]] = m[2]
		}
		if m := buildShBuild.FindStringSubmatch(line); m != nil {
			built = append(built, buildTarget{expand(m[1]), m[2], m[3], n})
		}
		if m := buildShSkip.FindStringSubmatch(line); m != nil {
			skipped[expand(m[1])+" "+m[2]] = n
		}
		if m := buildShLoader.FindStringSubmatch(line); m != nil {
			loaders = append(loaders, seedLoader{m[1], m[2], n})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return built, skipped, loaders
}

// fuzzTargetsInCode finds every native fuzz target in the module, as go
// test does (a function FuzzXxx(*testing.F) in a _test.go file): "import
// path name", with the function's source.
func fuzzTargetsInCode(t *testing.T, root, module string) map[string]string {
	t.Helper()
	targets := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if p != root && (name == "testdata" || name == "vendor" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if p != root {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return nil
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		pkg := module
		if rel != "." {
			pkg += "/" + filepath.ToSlash(rel)
		}
		tname := testingName(file)
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !isFuzzName(fn.Name.Name) || !takesF(fn, tname) {
				continue
			}
			targets[pkg+" "+fn.Name.Name] = string(src[fset.Position(fn.Pos()).Offset:fset.Position(fn.End()).Offset])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(targets) == 0 {
		t.Fatal("no fuzz target in the code")
	}
	return targets
}

// isFuzzName is go test's rule: Fuzz, then nothing or not a lower-case
// letter.
func isFuzzName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Fuzz")
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(r)
}

// testingName is the name the file imports "testing" under.
func testingName(f *ast.File) string {
	for _, imp := range f.Imports {
		if imp.Path.Value == `"testing"` {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return "testing"
		}
	}
	return ""
}

// takesF reports whether fn's one parameter is a *testing.F, with the
// package imported as tname.
func takesF(fn *ast.FuncDecl, tname string) bool {
	params := fn.Type.Params.List
	if tname == "" || len(params) != 1 || len(params[0].Names) > 1 {
		return false
	}
	star, ok := params[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "F" {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == tname
}

func hasLine(text, line string) bool {
	for _, l := range strings.Split(text, "\n") {
		if l == line {
			return true
		}
	}
	return false
}

// TestBuildShSeedCorpora holds `toolnorm corpus export --format ossfuzz`
// to build.sh: every binary it builds gets a seed corpus
// (corpus.SeedTargets), encoded for the arguments its fuzz function takes
// in the code, and no seed corpus is for a binary it does not build.
func TestBuildShSeedCorpora(t *testing.T) {
	root, module := moduleRoot(t)
	built, _, _ := parseBuildSh(t, filepath.Join(root, ".clusterfuzzlite", "build.sh"))
	code := fuzzTargetsInCode(t, root, module)
	seeds := map[string][]string{}
	for _, s := range corpus.SeedTargets {
		if _, ok := seeds[s.Binary]; ok {
			t.Errorf("corpus.SeedTargets has %s twice", s.Binary)
		}
		seeds[s.Binary] = s.Params
	}
	for _, b := range built {
		params, ok := seeds[b.binary]
		if !ok {
			t.Errorf("build.sh:%d builds %s, which corpus.SeedTargets gives no seed corpus", b.line, b.binary)
			continue
		}
		delete(seeds, b.binary)
		inCode, err := fuzzParams(code[b.pkg+" "+b.fn])
		if err != nil {
			t.Errorf("build.sh:%d: %s %s: %v", b.line, b.pkg, b.fn, err)
			continue
		}
		if strings.Join(inCode, ", ") != strings.Join(params, ", ") {
			t.Errorf("%s's fuzz function takes (%s), its seeds in corpus.SeedTargets are (%s)", b.binary, strings.Join(inCode, ", "), strings.Join(params, ", "))
		}
	}
	for name := range seeds {
		t.Errorf("corpus.SeedTargets has %s, which build.sh does not build", name)
	}
}

// fuzzParams returns the types of the arguments, after the *testing.T, of
// the function a fuzz target's source hands f.Fuzz, one per argument
// ("[]byte" for []uint8 too).
func fuzzParams(src string) ([]string, error) {
	file, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var params []string
	found := false
	ast.Inspect(file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Fuzz" || len(call.Args) != 1 {
			return true
		}
		lit, ok := call.Args[0].(*ast.FuncLit)
		if !ok {
			return true
		}
		found = true
		for i, field := range lit.Type.Params.List {
			typ := typeString(field.Type)
			n := max(len(field.Names), 1)
			for range n {
				params = append(params, typ)
			}
			if i == 0 {
				params = params[n:] // the *testing.T
			}
		}
		return false
	})
	if !found {
		return nil, fmt.Errorf("no f.Fuzz(func(...) {...}) in its source")
	}
	return params, nil
}

func typeString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		if x.Name == "byte" {
			return "uint8"
		}
		return x.Name
	case *ast.ArrayType:
		if x.Len == nil {
			if elt := typeString(x.Elt); elt == "uint8" {
				return "[]byte"
			} else {
				return "[]" + elt
			}
		}
	case *ast.StarExpr:
		return "*" + typeString(x.X)
	case *ast.SelectorExpr:
		return typeString(x.X) + "." + x.Sel.Name
	}
	return fmt.Sprintf("%T", e)
}
