//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used, user and system, on
// every core: what a benchmark costs whatever else the machine runs.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
