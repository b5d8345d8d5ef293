// Package kits holds toolnorm's adapter kits: one file per language, standard
// library only, that speaks the implementation protocol (docs/protocol.md)
// around one function of the implementer's, losing nothing of the requests
// on the way. toolnorm init writes them out; each kit's own tests, in its
// language, sit beside it.
package kits

import (
	"embed"
	"io/fs"
)

//go:embed python/toolnorm_kit.py javascript/toolnorm-kit.mjs php/toolnorm_kit.php
var files embed.FS

// A Kit is one language's kit file.
type Kit struct {
	Lang string // python, javascript or php, as toolnorm init --lang names it
	Path string // its path in FS
	Name string // its file name, as written into a project
}

// All lists the kits.
var All = []Kit{
	{Lang: "python", Path: "python/toolnorm_kit.py", Name: "toolnorm_kit.py"},
	{Lang: "javascript", Path: "javascript/toolnorm-kit.mjs", Name: "toolnorm-kit.mjs"},
	{Lang: "php", Path: "php/toolnorm_kit.php", Name: "toolnorm_kit.php"},
}

// FS holds the kit files at the paths All gives.
func FS() fs.FS { return files }

// For returns the kit of a language and its contents.
func For(lang string) (Kit, []byte, bool) {
	for _, k := range All {
		if k.Lang == lang {
			b, err := files.ReadFile(k.Path)
			if err != nil {
				panic("kits: " + k.Path + " is not embedded: " + err.Error()) // a build without the files
			}
			return k, b, true
		}
	}
	return Kit{}, nil, false
}
