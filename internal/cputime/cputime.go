// Package cputime reads the CPU time this process has used, for
// benchmarks that report it beside wall time: what a benchmark costs,
// counted on every core, whatever else the machine runs. Only tests and
// benchmarks import it.
package cputime

import "time"

// Used is the CPU time this process has used, user and system, on every
// core; 0 where the system does not say (no metric).
func Used() time.Duration { return used() }
