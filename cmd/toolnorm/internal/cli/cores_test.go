package cli

import (
	"runtime"
	"testing"
)

// leaveCores gives toolnorm the cores its adapter's runs leave, puts them
// back, and does nothing when the runs take them all or GOMAXPROCS is
// set.
func TestLeaveCores(t *testing.T) {
	t.Setenv("GOMAXPROCS", "")
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, tc := range []struct{ jobs, want int }{{1, 3}, {3, 1}, {4, 4}, {6, 4}} {
		restore := leaveCores(tc.jobs)
		if got := runtime.GOMAXPROCS(0); got != tc.want {
			t.Errorf("--jobs %d on 4 cores: GOMAXPROCS %d, want %d", tc.jobs, got, tc.want)
		}
		restore()
		if got := runtime.GOMAXPROCS(0); got != 4 {
			t.Errorf("--jobs %d: GOMAXPROCS %d once restored, want 4", tc.jobs, got)
		}
	}
	t.Setenv("GOMAXPROCS", "4")
	restore := leaveCores(1)
	if got := runtime.GOMAXPROCS(0); got != 4 {
		t.Errorf("GOMAXPROCS set: %d, want it left at 4", got)
	}
	restore()
}
