package initcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
)

// JudgedFile is the file, in the directory of the vectors, that says how
// each vector is judged under each declaration an adapter can make, as
// toolnorm check judges it ([corpus.Applies]): the native tests of Python,
// JavaScript and PHP, which have no reference to ask, read it. Its name
// starts with a dot, so that the replay runners and corpus.Load pass it by.
const JudgedFile = ".judged.json"

// The declarations the table covers: both profiles, a pass bound of none
// to 3, both depths, and each set of repairs. A declaration outside them
// (max_passes 4) has its vectors judged only under the options they were
// written for.
var (
	judgedProfiles = []string{"text", "attribute"}
	judgedPasses   = []int{0, 1, 2, 3}
	judgedDepths   = []string{"all", "top"}
	judgedRepairs  = [][]string{{"entities", "json"}, {"json"}, {"entities"}}
)

// What a vector's letter says under a declaration.
const (
	judgedYes   = 'j' // judged under the declared options, with its expected result
	judgedNeeds = 'n' // not judged: it needs a repair the declaration leaves out
	judgedOther = 's' // not judged: it means something else under the declared options
)

// judgedAbout is the table's own description, for whoever opens it.
const judgedAbout = "Written by toolnorm init with the vectors beside it, for the corpus test it wrote: " +
	"how toolnorm check judges each vector under each declaration an adapter can make. " +
	"declarations lists them as \"PROFILE MAX_PASSES DEPTH REPAIRS\" (the repairs sorted, joined by a comma); " +
	"each vector's letters follow that order: j, judged under the declared options with its expected result; " +
	"n, not judged: it needs a repair the adapter declares it does not do; " +
	"s, not judged: written for other options, it means something else under the declared ones. " +
	"A vector not listed is judged only under the options it was written for."

// declarationKey is a declaration as the table and the native tests name
// it.
func declarationKey(profile string, passes int, depth string, repairs []string) string {
	s := profile + " " + strconv.Itoa(passes) + " " + depth + " "
	for i, r := range repairs {
		if i > 0 {
			s += ","
		}
		s += r
	}
	return s
}

// judgedTable returns the table of vs (a JSON object: about, declarations,
// vectors by id).
func judgedTable(ctx context.Context, vs []*corpus.Vector) ([]byte, error) {
	type decl struct {
		key string
		o   impl.Options
	}
	var ds []decl
	for _, p := range judgedProfiles {
		for _, n := range judgedPasses {
			for _, d := range judgedDepths {
				for _, r := range judgedRepairs {
					o := impl.Options{MaxPasses: n}
					if p == "attribute" {
						o.Profile = normalize.Attribute
					}
					if d == "top" {
						o.Depth = normalize.TopLevel
					}
					switch {
					case len(r) == 2:
						o.Repairs = normalize.AllRepairs
					case r[0] == "json":
						o.Repairs = normalize.JSONRepair
					default:
						o.Repairs = normalize.EntityRepair
					}
					ds = append(ds, decl{declarationKey(p, n, d, r), o})
				}
			}
		}
	}
	var b bytes.Buffer
	b.WriteString("{\n  \"about\": ")
	about, _ := json.Marshal(judgedAbout)
	b.Write(about)
	b.WriteString(",\n  \"declarations\": [")
	for i, d := range ds {
		if i > 0 {
			b.WriteString(", ")
		}
		k, _ := json.Marshal(d.key)
		b.Write(k)
	}
	b.WriteString("],\n  \"vectors\": {")
	for i, v := range vs {
		letters := make([]byte, len(ds))
		for j, d := range ds {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			switch a := corpus.Applies(ctx, v, d.o); {
			case a.Applies:
				letters[j] = judgedYes
			case a.NeedsRepair:
				letters[j] = judgedNeeds
			default:
				letters[j] = judgedOther
			}
		}
		if i > 0 {
			b.WriteString(",")
		}
		id, _ := json.Marshal(v.ID)
		fmt.Fprintf(&b, "\n    %s: %q", id, letters)
	}
	b.WriteString("\n  }\n}\n")
	return b.Bytes(), nil
}
