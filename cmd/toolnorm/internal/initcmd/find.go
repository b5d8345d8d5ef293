package initcmd

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

var (
	pyModule   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)
	identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)
	phpName    = regexp.MustCompile(`^(?:([A-Za-z_\\][A-Za-z0-9_\\]*)::)?([A-Za-z_][A-Za-z0-9_]*)$`)
)

// find checks that the function f exists in the repository at root, as far
// as reading its file can tell, and names its parts.
func find(root, lang, f string) (target, error) {
	switch lang {
	case "python":
		module, name, ok := strings.Cut(f, ":")
		if !ok || !pyModule.MatchString(module) || !identifier.MatchString(name) || strings.Contains(name, "$") {
			return target{}, errors.New("want MODULE:FUNCTION, such as mypkg.normalize:normalize")
		}
		base := filepath.Join(root, filepath.FromSlash(strings.ReplaceAll(module, ".", "/")))
		file := ""
		for _, candidate := range []string{base + ".py", filepath.Join(base, "__init__.py")} {
			if _, err := os.Stat(candidate); err == nil {
				file = candidate
				break
			}
		}
		if file == "" {
			return target{}, fmt.Errorf("no module %s in the repository's root (no %s.py, no %s/__init__.py)", module, rel(root, base), rel(root, base))
		}
		defines := regexp.MustCompile(`(?m)^[ \t]*(?:async[ \t]+)?def[ \t]+` + name + `\b|^` + name + `[ \t]*=|\bimport\b.*\b` + name + `\b`)
		if err := lookFor(root, file, defines, "defines no "+name); err != nil {
			return target{}, err
		}
		return target{Func: f, Module: module, Name: name, File: rel(root, file)}, nil
	case "javascript":
		file, name, ok := strings.Cut(f, "#")
		if !ok || file == "" || !identifier.MatchString(name) {
			return target{}, errors.New("want PATH#EXPORT, such as src/normalize.js#normalize or src/normalize.js#default")
		}
		p, err := inRoot(root, file)
		if err != nil {
			return target{}, err
		}
		q := regexp.QuoteMeta(name)
		exports := regexp.MustCompile(`\bexport[ \t]+(?:async[ \t]+)?function\*?[ \t]*` + q + `\b|\bexport[ \t]+(?:const|let|var|class)[ \t]+` + q + `\b|\bexport[ \t]*\{[^}]*\b` + q + `\b|\bexports\.` + q + `[ \t]*=|\bmodule\.exports\b[\s\S]*\b` + q + `\b`)
		if name == "default" {
			exports = regexp.MustCompile(`\bexport[ \t]+default\b|\bmodule\.exports[ \t]*=|\bas[ \t]+default\b`)
		}
		if err := lookFor(root, p, exports, "exports no "+name); err != nil {
			return target{}, err
		}
		return target{Func: f, Name: name, File: rel(root, p)}, nil
	case "php":
		// PATH:FUNCTION, or PATH:Class::method.
		i := strings.LastIndex(f, ":")
		if i > 0 && f[i-1] == ':' {
			i = strings.LastIndex(f[:i-1], ":")
		}
		if i <= 0 {
			return target{}, errors.New("want PATH:FUNCTION or PATH:Class::method, such as src/normalize.php:my_normalize")
		}
		file, name := f[:i], f[i+1:]
		m := phpName.FindStringSubmatch(name)
		if file == "" || m == nil {
			return target{}, errors.New("want PATH:FUNCTION or PATH:Class::method, such as src/normalize.php:my_normalize")
		}
		p, err := inRoot(root, file)
		if err != nil {
			return target{}, err
		}
		defines := regexp.MustCompile(`(?i)\bfunction[ \t]+&?[ \t]*` + m[2] + `[ \t]*\(`)
		if err := lookFor(root, p, defines, "defines no function "+m[2]); err != nil {
			return target{}, err
		}
		return target{Func: f, Name: name, File: rel(root, p)}, nil
	case "go":
		return findGo(root, f)
	}
	return target{}, fmt.Errorf("no language %q", lang)
}

var (
	goModule  = regexp.MustCompile(`(?m)^module[ \t]+"?([^\s"]+)"?`)
	goPackage = regexp.MustCompile(`(?m)^package[ \t]+([A-Za-z_][A-Za-z0-9_]*)`)
	goIdent   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// findGo reads a Go F, PACKAGE:FUNC, where PACKAGE is a directory of the
// main module (./internal/norm, or . for its root) or its import path
// (example.com/m/internal/norm), and FUNC an exported function of it.
func findGo(root, f string) (target, error) {
	const want = "want PACKAGE:FUNCTION, such as ./internal/norm:Normalize"
	pkg, name, ok := strings.Cut(f, ":")
	if !ok || pkg == "" || !goIdent.MatchString(name) {
		return target{}, errors.New(want)
	}
	if name[0] < 'A' || name[0] > 'Z' {
		return target{}, fmt.Errorf("%s is not exported: the adapter is another package", name)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return target{}, errors.New("no go.mod in the repository's root: the adapter is a package of its main module")
	}
	m := goModule.FindSubmatch(mod)
	if m == nil {
		return target{}, errors.New("go.mod names no module")
	}
	module := string(m[1])
	var dir string
	switch {
	case pkg == "." || pkg == ".." || strings.HasPrefix(pkg, "./") || strings.HasPrefix(pkg, "../"):
		dir = path.Clean(pkg)
	case pkg == module:
		dir = "."
	case strings.HasPrefix(pkg, module+"/"):
		dir = strings.TrimPrefix(pkg, module+"/")
	default:
		return target{}, fmt.Errorf("%s is not a package of the module %s: write ./DIR or %s/DIR", pkg, module, module)
	}
	if dir == ".." || strings.HasPrefix(dir, "../") || !safeDir.MatchString(dir) {
		return target{}, fmt.Errorf("%s is not inside the repository", pkg)
	}
	importPath := module
	if dir != "." {
		importPath = module + "/" + dir
	}
	abs := filepath.Join(root, filepath.FromSlash(dir))
	entries, err := os.ReadDir(abs)
	if err != nil {
		return target{}, fmt.Errorf("no directory %s", dir)
	}
	defines := regexp.MustCompile(`(?m)^func[ \t]+` + name + `[ \t]*[(\[]`)
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(abs, e.Name()))
		if err != nil || !defines.Match(b) {
			continue
		}
		if p := goPackage.FindSubmatch(b); p != nil && string(p[1]) == "main" {
			return target{}, fmt.Errorf("%s is package main, which no other package can import", dir)
		}
		return target{Func: f, Module: importPath, Name: name, File: rel(root, filepath.Join(abs, e.Name()))}, nil
	}
	return target{}, fmt.Errorf("package %s defines no func %s", dir, name)
}

// inRoot is file's path, which must be a file inside root.
func inRoot(root, file string) (string, error) {
	p := filepath.Join(root, filepath.FromSlash(file))
	if r, err := filepath.Rel(root, p); err != nil || r == ".." || strings.HasPrefix(r, "../") || filepath.IsAbs(file) {
		return "", fmt.Errorf("%s is not inside the repository", file)
	}
	st, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("no file %s", file)
	}
	if st.IsDir() {
		return "", fmt.Errorf("%s is a directory, not a file", file)
	}
	return p, nil
}

func lookFor(root, file string, re *regexp.Regexp, missing string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if !re.Match(b) {
		return fmt.Errorf("%s %s", rel(root, file), missing)
	}
	return nil
}

func rel(root, p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return filepath.ToSlash(r)
}
