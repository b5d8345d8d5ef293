package cputime

import "testing"

// TestUsedGrows: work done shows as CPU time used (where the system says).
func TestUsedGrows(t *testing.T) {
	before := Used()
	if before == 0 {
		t.Skip("this system does not report CPU time")
	}
	x := 0
	for i := range 50_000_000 {
		x ^= i
	}
	if Used() <= before {
		t.Errorf("CPU time used did not grow after work (%d)", x)
	}
}
