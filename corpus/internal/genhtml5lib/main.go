// Command genhtml5lib writes the html5lib group of toolnorm's corpus:
// one vector under vectors/html5lib/ for every character-reference case of
// html5lib's tokenizer tests, as golang.org/x/net ships them (see
// oracle.HTML5LibCases).
//
// Each case becomes the schema {}, the arguments {"s": INPUT} and, for the
// cases read in an attribute value, the attribute profile. What a vector
// expects is html5lib's data carried to the fixpoint by x/net: the
// generator first checks that one pass of x/net's decoder over INPUT gives
// html5lib's output exactly (and fails otherwise), then repeats that pass on
// html5lib's output until it stops changing. toolnorm's own decoder is not
// used.
//
// It is run by `go generate ./corpus`, in the corpus directory (or give
// -dir). It rebuilds vectors/html5lib/ from scratch, in a directory beside
// the corpus's vectors/, and swaps it in only when every vector is written;
// the output depends only on the x/net version and the rest of the corpus
// (a case already there elsewhere is not written twice).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonraw"
	"github.com/toolnorm/toolnorm/normalize"
	"github.com/toolnorm/toolnorm/oracle"
)

// group is the directory under vectors/ that the generator owns.
const group = "html5lib"

// fileTags tags each vector by the html5lib file it comes from.
var fileTags = map[string]string{
	"namedEntities.test":   "named",
	"numericEntities.test": "numeric",
	"entities.test":        "entities",
}

func main() {
	dir := flag.String("dir", ".", "the corpus directory (holding vectors/)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: genhtml5lib [-dir CORPUS]")
		os.Exit(2)
	}
	if err := run(*dir, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "genhtml5lib:", err)
		os.Exit(1)
	}
}

func run(dir string, log io.Writer) error {
	vectorsDir := filepath.Join(dir, "vectors")
	if st, err := os.Stat(vectorsDir); err != nil || !st.IsDir() {
		return fmt.Errorf("%s: not a corpus: no vectors/ directory", dir)
	}
	existing, err := loadOthers(dir)
	if err != nil {
		return err
	}
	cases, err := oracle.HTML5LibCases()
	if err != nil {
		return err
	}

	// Write into a fresh corpus directory beside vectors/ (not inside it,
	// where a concurrent Load would see it), then swap the group in.
	tmp, err := os.MkdirTemp(dir, ".genhtml5lib-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	var written, beyond, deduped, dedupedElsewhere, text, attribute int
	for _, c := range cases {
		v, further, err := vectorOf(c)
		if err != nil {
			return err
		}
		file, added, err := corpus.Add(tmp, existing, v)
		if err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		if !added {
			deduped++
			if !strings.HasPrefix(file, "vectors/"+group+"/") {
				dedupedElsewhere++
			}
			fmt.Fprintf(log, "genhtml5lib: %q is the same case as %s: not written again\n", v.Description, file)
			continue
		}
		existing = append(existing, v)
		written++
		if further {
			beyond++
		}
		if c.Attribute {
			attribute++
		} else {
			text++
		}
	}
	if written == 0 {
		return errors.New("no html5lib cases: is the html5lib data missing?")
	}

	final := filepath.Join(vectorsDir, group)
	if err := os.RemoveAll(final); err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(tmp, "vectors", group), final); err != nil {
		return err
	}
	fmt.Fprintf(log, "genhtml5lib: %d html5lib cases: wrote %d vectors to %s (%d text, %d attribute; %d expect more than html5lib's one pass); %d deduplicated (%d of them against vectors outside %s/)\n",
		len(cases), written, final, text, attribute, beyond, deduped, dedupedElsewhere, group)
	return nil
}

// loadOthers reads the corpus in dir except the group this generator owns,
// which it rewrites.
func loadOthers(dir string) ([]*corpus.Vector, error) {
	vectors, err := corpus.Load(os.DirFS(dir))
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			var fe *corpus.FileError
			if errors.As(e, &fe) && ours(fe.File) {
				continue
			}
			errs = append(errs, e)
		}
	} else if err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("reading the corpus in %s: %w", dir, err)
	}
	var others []*corpus.Vector
	for _, v := range vectors {
		if !ours(v.File) {
			others = append(others, v)
		}
	}
	return others, nil
}

func ours(file string) bool {
	return strings.HasPrefix(path.Clean(file)+"/", "vectors/"+group+"/")
}

// vectorOf turns one html5lib case into a vector, after checking that one
// pass of x/net's decoder gives html5lib's output.
// further reports whether the fixpoint goes past html5lib's one pass.
func vectorOf(c oracle.Case) (v *corpus.Vector, further bool, err error) {
	pass, clause, o := oracle.Unescape, "reading/1", corpus.Options{}
	if c.Attribute {
		pass, clause, o = oracle.UnescapeAttribute, "reading/3", corpus.Options{Profile: normalize.Attribute}
	}
	if got := pass(c.Input); got != c.Want {
		return nil, false, fmt.Errorf("%s: one pass of x/net over %q gives %q, html5lib wants %q", c.Name, c.Input, got, c.Want)
	}
	want, _, _ := oracle.Fixpoint(c.Want, pass, 0)

	file, _, _ := strings.Cut(c.Name, " ")
	tag, ok := fileTags[file]
	if !ok {
		return nil, false, fmt.Errorf("%s: from an unknown html5lib file %q", c.Name, file)
	}
	description := "html5lib " + c.Name
	return corpus.New(description, clause, "html5lib", []string{"html5lib", tag},
		[]byte("{}"), argumentsOf(c.Input), o, expectation(argumentsOf(want))), want != c.Want, nil
}

// argumentsOf returns the JSON text {"s": s}. s is WTF-8: a lone surrogate
// (which html5lib's doubleEscaped tests hold) is written as a \u escape.
func argumentsOf(s string) []byte {
	b := append([]byte(`{"s":`), jsonraw.AppendQuote(nil, []byte(s))...)
	return append(b, '}')
}

// expectation is the Impl that corpus.New takes the expected result from:
// the arguments html5lib and x/net say the tool must receive.
type expectation []byte

func (expectation) Name() string { return "html5lib, carried to the fixpoint by x/net" }

func (e expectation) Normalize(ctx context.Context, c impl.Case) corpus.Result {
	return corpus.Result{Output: e}
}
