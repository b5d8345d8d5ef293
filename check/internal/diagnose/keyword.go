package diagnose

import "github.com/toolnorm/toolnorm/internal/schemaview"

// keyword is the most notable keyword a schema holds in a schema
// position (the first of schemaview.Keywords), or "".
func keyword(schema []byte) string {
	if ks := schemaview.Keywords(schema); len(ks) > 0 {
		return ks[0]
	}
	return ""
}
