package initcmd

import (
	"errors"
	"fmt"
	"os"
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
	}
	return target{}, fmt.Errorf("no language %q", lang)
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
