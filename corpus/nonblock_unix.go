//go:build unix

package corpus

import (
	"io/fs"
	"syscall"
)

// openNonblock opens a named pipe without waiting for a writer.
const openNonblock = syscall.O_NONBLOCK

// links is how many links (names) a file has.
func links(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
