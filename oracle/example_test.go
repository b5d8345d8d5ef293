package oracle_test

import (
	"fmt"

	"github.com/toolnorm/toolnorm/oracle"
)

func ExampleUnescape() {
	fmt.Println(oracle.Unescape("Ember &amp;amp; Oak"))
	fmt.Println(oracle.Unescape("&notin; &notit; &#4294967356;"))
	fmt.Println(oracle.Unescape("?a=1&region=eu&not=2"))
	// Output:
	// Ember &amp; Oak
	// ∉ ¬it; �
	// ?a=1®ion=eu¬=2
}

func ExampleUnescapeAttribute() {
	fmt.Println(oracle.UnescapeAttribute("?a=1&region=eu&not=2"))
	fmt.Println(oracle.UnescapeAttribute("&not; &not &notit;"))
	// Output:
	// ?a=1&region=eu&not=2
	// ¬ ¬ &notit;
}

func ExampleFixpoint() {
	fmt.Println(oracle.Fixpoint("&amp;amp;amp;", oracle.Unescape, 0))
	fmt.Println(oracle.Fixpoint("&amp;amp;amp;", oracle.Unescape, 2))
	fmt.Println(oracle.Fixpoint("&l&#116;;", oracle.Unescape, 0))
	// Output:
	// & 3 true
	// &amp; 2 false
	// < 2 true
}

func ExampleNormalize() {
	schema := []byte(`{
		"type": "object",
		"properties": {
			"title": {"type": "string"},
			"tags":  {"type": "array", "items": {"type": "string"}},
			"ops":   {"type": "array"}
		}
	}`)
	args := []byte(`{
		"title": "Ember &amp;amp; Oak",
		"tags":  "[&quot;wood&quot;, \"[1]\"]",
		"ops":   "{\"op\":\"add\"}",
		"size":  1.50
	}`)
	out, err := oracle.Normalize(schema, args, oracle.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))
	// Output:
	// {"title":"Ember & Oak","tags":["wood","[1]"],"ops":"{\"op\":\"add\"}","size":1.50}
}

func ExampleEqual() {
	eq, _ := oracle.Equal([]byte(`{"n":1.0,"s":"\u00e9"}`), []byte(`{"n":1,"s":"é"}`))
	fmt.Println(eq)
	eq, _ = oracle.Equal([]byte(`{"a":1,"b":2}`), []byte(`{"b":2,"a":1}`))
	fmt.Println(eq)
	// Output:
	// true
	// false
}
