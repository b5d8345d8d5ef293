//go:build unix

package normalize

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, user and system: what
// a benchmark spends, counted on a machine whose other work slows its
// clock time down.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
