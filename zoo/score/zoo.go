package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
)

// A Switch is one planted bug of the zoo, as zoo/switches.json lists it.
type Switch struct {
	ID   string `json:"id"`
	Lang string `json:"lang"`
	Bug  string `json:"bug"`
	// Deviations are the catalogue's ids that explain the switch exactly:
	// the reference with them gives the switch's answer on every input.
	Deviations []string `json:"deviations"`
	// Group is the part of the rule the bug is in (json, order, entities,
	// schema, output): a combination draws at most one switch of a group.
	Group string `json:"group"`
	// Excludes are groups and switches a combination never draws beside
	// this one, because this bug hides theirs (no JSON repair hides every
	// bug of reading the schema).
	Excludes []string `json:"excludes,omitempty"`
}

// loadSwitches reads zoo/switches.json.
func loadSwitches(path string) ([]Switch, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var sw []Switch
	if err := json.Unmarshal(b, &sw); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	seen := map[string]bool{}
	for i, s := range sw {
		switch {
		case s.ID == "" || s.Lang == "" || s.Group == "" || len(s.Deviations) == 0:
			return nil, fmt.Errorf("%s: entry %d needs an id, a lang, a group and deviations", path, i)
		case seen[s.ID]:
			return nil, fmt.Errorf("%s: %s is listed twice", path, s.ID)
		}
		seen[s.ID] = true
	}
	return sw, nil
}

// A Run is one check of one combination of switches at one seed.
type Run struct {
	Combo    int      // the combination's number: its runs at several seeds share it
	Lang     string   // python or javascript
	Seed     uint64   // check's --seed
	Switches []string // the switches on
}

// Name is the run's file name, without extension, in the runs directory.
func (r Run) Name() string { return fmt.Sprintf("%03d-%s-seed%d", r.Combo, r.Lang, r.Seed) }

// excludes reports whether a and b may not be drawn together.
func excludes(a, b Switch) bool {
	if a.Group == b.Group {
		return true
	}
	return slices.Contains(a.Excludes, b.Group) || slices.Contains(a.Excludes, b.ID) ||
		slices.Contains(b.Excludes, a.Group) || slices.Contains(b.Excludes, a.ID)
}

// draw plans n combinations of 1 to 3 switches, languages in turn, from
// seed: each combination is checked at its own seed, and a combination of
// one switch at stability seeds in a row too (its titles must not change).
func draw(sw []Switch, n int, seed uint64, stability int) []Run {
	rng := rand.New(rand.NewPCG(seed, 0x200))
	byLang := map[string][]Switch{}
	var langs []string
	for _, s := range sw {
		if _, ok := byLang[s.Lang]; !ok {
			langs = append(langs, s.Lang)
		}
		byLang[s.Lang] = append(byLang[s.Lang], s)
	}
	var runs []Run
	for c := range n {
		lang := langs[c%len(langs)]
		pool := byLang[lang]
		size := 1 + rng.IntN(3)
		var chosen []Switch
		for _, i := range rng.Perm(len(pool)) {
			if len(chosen) == size {
				break
			}
			if !slices.ContainsFunc(chosen, func(s Switch) bool { return excludes(s, pool[i]) }) {
				chosen = append(chosen, pool[i])
			}
		}
		ids := make([]string, len(chosen))
		for i, s := range chosen {
			ids[i] = s.ID
		}
		slices.Sort(ids)
		first := 1 + rng.Uint64N(1000)
		seeds := 1
		if len(ids) == 1 && stability > 1 {
			seeds = stability
		}
		for k := range seeds {
			runs = append(runs, Run{Combo: c, Lang: lang, Seed: first + uint64(k), Switches: ids})
		}
	}
	return runs
}

// singles plans every switch alone, at seeds seed to seed+k-1: what the
// report says of each bug on its own.
func singles(sw []Switch, seed uint64, k int) []Run {
	var runs []Run
	for c, s := range sw {
		for i := range max(k, 1) {
			runs = append(runs, Run{Combo: c, Lang: s.Lang, Seed: seed + uint64(i), Switches: []string{s.ID}})
		}
	}
	return runs
}

// formatPlan writes runs one a line: name, language, seed, switches.
func formatPlan(runs []Run) string {
	var b strings.Builder
	for _, r := range runs {
		fmt.Fprintf(&b, "%s\t%s\t%d\t%s\n", r.Name(), r.Lang, r.Seed, strings.Join(r.Switches, ","))
	}
	return b.String()
}

// parsePlan reads what formatPlan wrote.
func parsePlan(text string) ([]Run, error) {
	var runs []Run
	for n, line := range strings.Split(strings.TrimSpace(text), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("plan line %d: want 4 tab-separated fields, have %d", n+1, len(f))
		}
		combo, err1 := strconv.Atoi(strings.SplitN(f[0], "-", 2)[0])
		seed, err2 := strconv.ParseUint(f[2], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("plan line %d: bad combination number or seed", n+1)
		}
		runs = append(runs, Run{Combo: combo, Lang: f[1], Seed: seed, Switches: strings.Split(f[3], ",")})
	}
	return runs, nil
}
