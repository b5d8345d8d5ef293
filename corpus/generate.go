package corpus

// The html5lib group of vectors (vectors/html5lib/) is generated from
// html5lib's tokenizer tests, as golang.org/x/net ships them; regenerate it
// with `go generate ./corpus` after updating golang.org/x/net.
//go:generate go run ./internal/genhtml5lib
