package render

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/toolnorm/toolnorm/check"
)

// Badge is one implementation's standing as a shields.io endpoint badge
// (https://shields.io/badges/endpoint-badge), as Bowtie publishes one per
// validator: a maintainer shows it in their own README with
// https://img.shields.io/endpoint?url=<the file's raw URL>.
type Badge struct {
	Slug          string `json:"-"` // the file name, without .json
	SchemaVersion int    `json:"schemaVersion"`
	Label         string `json:"label"`
	Message       string `json:"message"`
	Color         string `json:"color"`
}

// JSON is the badge file's content.
func (b Badge) JSON() []byte {
	data, _ := json.MarshalIndent(b, "", "  ")
	return append(data, '\n')
}

// Badges returns a badge per report: "pass", or "fail" with how many
// properties broke and how much of the corpus it passed, and the repair
// it does not do.
func Badges(reports []*check.Report) []Badge {
	var out []Badge
	used := map[string]bool{}
	for _, r := range reports {
		name := r.Implementation
		if r.Info != nil && r.Info.Name != "" {
			name = r.Info.Name
		}
		b := Badge{Slug: slug(name), SchemaVersion: 1, Label: "RT-TOOL-8", Color: "lightgrey", Message: string(r.Verdict)}
		for n, base := 2, b.Slug; used[b.Slug]; n++ {
			b.Slug = fmt.Sprintf("%s-%d", base, n)
		}
		used[b.Slug] = true
		switch r.Verdict {
		case check.Pass:
			b.Message, b.Color = "pass", "brightgreen"
		case check.Fail:
			b.Color = "red"
			broken := 0
			for _, p := range r.Properties {
				if p.Violation != nil || p.Status == check.StatusViolated {
					broken++
				}
			}
			parts := []string{"fail", fmt.Sprintf("%d/%d properties broken", broken, len(r.Properties))}
			if judged := r.Corpus.Passed + r.Corpus.Failed; judged > 0 {
				// Rounded down: 5004 of 5005 is not 100.0%.
				parts = append(parts, fmt.Sprintf("%.1f%% of vectors", math.Floor(1000*float64(r.Corpus.Passed)/float64(judged))/10))
			}
			if r.NotImplemented != "" {
				missing, _, _ := strings.Cut(r.NotImplemented, " (")
				parts = append(parts, "no "+strings.TrimPrefix(missing, "the "))
			}
			b.Message = strings.Join(parts, " · ")
		}
		out = append(out, b)
	}
	return out
}

// slug is a name as a file name: lower case, letters and digits, dashes.
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "implementation"
	}
	return b.String()
}
