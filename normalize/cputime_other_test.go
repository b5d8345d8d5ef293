//go:build !unix

package normalize

import "time"

// cpuTime is 0 where getrusage is not: BenchmarkHostile then reports no
// cpu-ns/B.
func cpuTime() time.Duration { return 0 }
