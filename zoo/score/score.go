package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// report is what the scorer reads of `toolnorm check --format json`
// (docs/report.schema.json): the root causes, each by its stable id where
// the report has one, else by its class.
type report struct {
	Verdict    string `json:"verdict"`
	RootCauses []struct {
		ID     string `json:"id"`
		Title  string `json:"title"`
		Class  string `json:"class"`
		Clause string `json:"clause"`
	} `json:"root_causes"`
}

// cause is one root cause as the scorer sees it.
type cause struct {
	Key   string // the id, or the class while reports have no id
	Title string
}

func readReport(b []byte) ([]cause, error) {
	var r report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	if r.Verdict == "" {
		return nil, fmt.Errorf("no verdict: not a check report")
	}
	causes := make([]cause, len(r.RootCauses))
	for i, c := range r.RootCauses {
		key := c.ID
		if key == "" {
			key = c.Class
		}
		causes[i] = cause{Key: key, Title: c.Title}
	}
	return causes, nil
}

// tally is a switch's score over the runs that had it on.
type tally struct {
	Runs       int            // runs with the switch on
	Found      int            // of them, runs with a root cause one of its deviations explains
	Matched    int            // root causes matched to it, over all its runs
	Precise    int            // of them, causes that match it and no other switch on
	Alone      int            // runs with it alone
	AloneFound int            // of them, runs with any root cause at all
	Keys       map[string]int // ids or classes of the causes of its runs alone
	Titles     map[uint64][]string
}

// Score is the zoo's measure of a set of runs.
type Score struct {
	Switches map[string]*tally
	// Instances: switches on, summed over runs; Found: of them, found.
	Instances, Found int
	// Causes: root causes in all reports; Precise: those matching exactly one switch on;
	// Unmatched: those matching none; Duplicates: causes matched to a switch beyond its first;
	// Excess: causes beyond one per switch on, run by run, whatever they match.
	Causes, Precise, Unmatched, Duplicates, Excess int
	// Stable: switches alone at several seeds whose titles were the same at every seed,
	// of Unstable+Stable.
	Stable, Unstable int
	// Failed runs: no report.
	Failed []string
}

// scoreRuns scores each run's report (nil where the run failed) against its switches.
func scoreRuns(sw []Switch, runs []Run, reports map[string][]cause) *Score {
	byID := map[string]Switch{}
	for _, s := range sw {
		byID[s.ID] = s
	}
	sc := &Score{Switches: map[string]*tally{}}
	for _, s := range sw {
		sc.Switches[s.ID] = &tally{Keys: map[string]int{}, Titles: map[uint64][]string{}}
	}
	for _, r := range runs {
		causes, ok := reports[r.Name()]
		if !ok {
			sc.Failed = append(sc.Failed, r.Name())
			continue
		}
		sc.Excess += max(0, len(causes)-len(r.Switches))
		matched := map[string]int{}
		for _, c := range causes {
			sc.Causes++
			var who []string
			for _, id := range r.Switches {
				if slices.Contains(byID[id].Deviations, c.Key) {
					who = append(who, id)
				}
			}
			switch len(who) {
			case 0:
				sc.Unmatched++
			case 1:
				sc.Precise++
			}
			for _, id := range who {
				matched[id]++
				sc.Switches[id].Matched++
				if len(who) == 1 {
					sc.Switches[id].Precise++
				}
			}
		}
		for _, id := range r.Switches {
			t := sc.Switches[id]
			t.Runs++
			sc.Instances++
			if matched[id] > 0 {
				t.Found++
				sc.Found++
				sc.Duplicates += matched[id] - 1
			}
			if len(r.Switches) == 1 {
				t.Alone++
				if len(causes) > 0 {
					t.AloneFound++
				}
				var titles []string
				for _, c := range causes {
					t.Keys[c.Key]++
					titles = append(titles, c.Title)
				}
				slices.Sort(titles)
				t.Titles[r.Seed] = titles
			}
		}
	}
	for _, t := range sc.Switches {
		switch stable, seeds := t.stable(); {
		case seeds < 2:
		case stable:
			sc.Stable++
		default:
			sc.Unstable++
		}
	}
	return sc
}

// stable reports whether the switch alone had the same titles at every seed
// it was checked at, and at how many seeds.
func (t *tally) stable() (bool, int) {
	var first []string
	n := 0
	for _, titles := range t.Titles {
		if n == 0 {
			first = titles
		} else if !slices.Equal(first, titles) {
			return false, len(t.Titles)
		}
		n++
	}
	return true, n
}

func percent(n, of int) string {
	if of == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(n)/float64(of))
}

// markdown is the per-switch table and the totals.
func (sc *Score) markdown(sw []Switch) string {
	var b strings.Builder
	b.WriteString("| switch | deviations | runs | found | causes matched | precise | alone: any cause | alone: titles the same at every seed | alone: what the report names |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, s := range sw {
		t := sc.Switches[s.ID]
		stable := "–"
		switch ok, seeds := t.stable(); {
		case seeds < 2:
		case ok:
			stable = fmt.Sprintf("yes (%d seeds)", seeds)
		default:
			stable = fmt.Sprintf("no (%d seeds)", seeds)
		}
		keys := make([]string, 0, len(t.Keys))
		for k := range t.Keys {
			keys = append(keys, "`"+k+"`")
		}
		slices.Sort(keys)
		fmt.Fprintf(&b, "| `%s` | %s | %d | %s | %d | %d | %s | %s | %s |\n", s.ID, strings.Join(s.Deviations, ", "), t.Runs,
			percent(t.Found, t.Runs), t.Matched, t.Precise, percent(t.AloneFound, t.Alone), stable, strings.Join(keys, " "))
	}
	fmt.Fprintf(&b, "\n**Totals** over %d switches on in the runs:\n\n", sc.Instances)
	fmt.Fprintf(&b, "- recall: %s (%d of %d switches on have a root cause one of their deviations names)\n", percent(sc.Found, sc.Instances), sc.Found, sc.Instances)
	fmt.Fprintf(&b, "- precision: %s (%d of %d root causes name exactly one switch on; %d name none)\n", percent(sc.Precise, sc.Causes), sc.Precise, sc.Causes, sc.Unmatched)
	dup := "–"
	if sc.Instances > 0 {
		dup = fmt.Sprintf("%.2f", float64(sc.Duplicates)/float64(sc.Instances))
	}
	fmt.Fprintf(&b, "- duplicates: %s per switch (%d root causes beyond the first for the same switch)\n", dup, sc.Duplicates)
	if sc.Instances > 0 {
		fmt.Fprintf(&b, "- causes beyond one per switch on, whatever they name: %.2f per switch (%d)\n", float64(sc.Excess)/float64(sc.Instances), sc.Excess)
	}
	fmt.Fprintf(&b, "- stability: %s (%d of %d switches checked alone at several seeds kept the same titles)\n", percent(sc.Stable, sc.Stable+sc.Unstable), sc.Stable, sc.Stable+sc.Unstable)
	if n := len(sc.Failed); n > 0 {
		shown := sc.Failed[:min(n, 10)]
		more := ""
		if n > len(shown) {
			more = fmt.Sprintf(" and %d more", n-len(shown))
		}
		fmt.Fprintf(&b, "- runs without a report (not scored): %d: %s%s\n", n, strings.Join(shown, ", "), more)
	}
	return b.String()
}

// mapping is the table of the switches and the deviations that explain them.
func mapping(sw []Switch) string {
	var b strings.Builder
	b.WriteString("| switch | language | the bug | deviations |\n| --- | --- | --- | --- |\n")
	for _, s := range sw {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", s.ID, s.Lang, strings.ReplaceAll(s.Bug, "|", `\|`), "`"+strings.Join(s.Deviations, "`, `")+"`")
	}
	return b.String()
}
