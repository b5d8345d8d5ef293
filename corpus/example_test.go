package corpus_test

import (
	"fmt"
	"log"
	"testing/fstest"

	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
)

// Load reads the vectors of a corpus: the one built into toolnorm
// (corpus.Embedded()), a directory (corpus.DirFS(dir)), or, as here, any
// fs.FS with a vectors/ directory. Replay runs one on an implementation
// and judges its result.
func ExampleLoad() {
	fsys := fstest.MapFS{"vectors/rule/key.json": {Data: []byte(`{
  "id": "c95be4c473257ce9",
  "description": "A key keeps its reference while its value is decoded",
  "clause": "rule/5",
  "origin": "hand",
  "schema": {"type": "object"},
  "arguments": {"&amp;": "&amp;"},
  "expected": {"&amp;": "&"}
}`)}}
	vectors, err := corpus.Load(fsys)
	if err != nil {
		log.Fatal(err)
	}
	for _, v := range vectors {
		fmt.Printf("%s %s (%s): %s\n", v.ID, v.File, v.Clause, v.Description)
		fmt.Println("the reference passes:", corpus.Replay(v, impl.Reference).Pass)
	}
	// Output:
	// c95be4c473257ce9 vectors/rule/key.json (rule/5): A key keeps its reference while its value is decoded
	// the reference passes: true
}
