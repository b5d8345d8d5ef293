package corpus

import (
	"embed"
	"io/fs"
)

//go:embed runners/replay.py runners/replay.mjs runners/replay.php
var runners embed.FS

// Runners returns the replay runners of corpus/runners, which replay the
// corpus in an implementer's own test suite: runners/replay.py,
// runners/replay.mjs and runners/replay.php.
func Runners() fs.FS { return runners }
