//go:build !unix

package corpus

import "io/fs"

// openNonblock is 0 where there are no named pipes to wait on.
const openNonblock = 0

// links is how many links (names) a file has: 1 where it cannot be told.
func links(info fs.FileInfo) uint64 { return 1 }
