// Command score is the bug zoo's scorer (docs/zoo.md): it draws the
// combinations of switches that scripts/zoo.sh checks, and scores the
// reports of `toolnorm check --format json` against the switches that were
// on: recall (switches with a root cause that one of their deviations
// names), precision (root causes that name exactly one switch on),
// duplicates (root causes beyond one per switch) and stability (the same
// titles at every seed for a switch alone).
//
//	score draw [--switches zoo/switches.json] [--n 200] [--seed 1] [--stability 5] [--singles]
//	score score --plan PLAN --runs DIR [--switches zoo/switches.json]
//	score switches [--switches zoo/switches.json]
//
// draw prints the plan, a run a line (name, language, seed, switches, tab
// separated); with --singles, every switch alone at --stability seeds from
// --seed instead of drawn combinations; score reads DIR/NAME.json for each run of the plan and prints
// the per-switch table in Markdown, then the totals; switches prints the
// table of the switches and their deviations.
//
// A root cause is matched by its id, or by its class while reports have no
// id: it names a switch when it is one of the switch's deviations.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "score:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: score draw|score|switches [flags]")
	}
	fl := flag.NewFlagSet("score "+args[0], flag.ContinueOnError)
	switchesPath := fl.String("switches", "zoo/switches.json", "the zoo's switches")
	n := fl.Int("n", 200, "draw: how many combinations")
	seed := fl.Uint64("seed", 1, "draw: the seed of the drawing")
	stability := fl.Int("stability", 5, "draw: seeds a switch alone is checked at")
	alone := fl.Bool("singles", false, "draw: every switch alone instead of combinations")
	plan := fl.String("plan", "", "score: the plan draw printed")
	runs := fl.String("runs", "", "score: the directory of the reports")
	if err := fl.Parse(args[1:]); err != nil {
		return err
	}
	sw, err := loadSwitches(*switchesPath)
	if err != nil {
		return err
	}
	switch args[0] {
	case "draw":
		if *alone {
			fmt.Print(formatPlan(singles(sw, *seed, *stability)))
			break
		}
		if *n < 1 {
			return errors.New("draw: --n must be at least 1")
		}
		fmt.Print(formatPlan(draw(sw, *n, *seed, *stability)))
	case "switches":
		fmt.Print(mapping(sw))
	case "score":
		if *plan == "" || *runs == "" {
			return errors.New("score: --plan and --runs are required")
		}
		text, err := os.ReadFile(*plan)
		if err != nil {
			return err
		}
		planned, err := parsePlan(string(text))
		if err != nil {
			return err
		}
		reports := map[string][]cause{}
		for _, r := range planned {
			b, err := os.ReadFile(filepath.Join(*runs, r.Name()+".json"))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return err
			}
			causes, err := readReport(b)
			if err != nil {
				fmt.Fprintf(os.Stderr, "score: %s: %v (not scored)\n", r.Name(), err)
				continue
			}
			reports[r.Name()] = causes
		}
		fmt.Print(scoreRuns(sw, planned, reports).markdown(sw))
	default:
		return fmt.Errorf("unknown command %q: draw, score or switches", args[0])
	}
	return nil
}
