//go:build unix

package corpus

import "syscall"

// openNonblock opens a named pipe without waiting for a writer.
const openNonblock = syscall.O_NONBLOCK
