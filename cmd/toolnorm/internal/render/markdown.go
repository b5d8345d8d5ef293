package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/internal/display"
)

// The one Markdown writer: check --format markdown and toolnorm report
// both write through it, so that a value is escaped the same way in
// each. GitHub decodes character references and markup outside code, so
// every value is written either as escaped text (mdText) or as code
// (mdCode), never raw: {"x&amp;y":"[1]"} must not display as x&y.

// mdText escapes text for a Markdown table cell or list item: nothing in it
// is markup, character references included, and it stays on one line.
var mdText = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;",
	`\`, `\\`, "|", `\|`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "~", `\~`, "#", `\#`,
	"\r\n", " ", "\n", " ", "\r", " ",
).Replace

// mdCode is s as inline code, shown exactly: fenced by more backticks
// than any run in s. In a table cell, where a '|' would end the cell
// even inside code, or for text over several lines, it is escaped text.
func mdCode(s string, inTable bool) string {
	if s == "" || strings.ContainsAny(s, "\r\n") || inTable && strings.Contains(s, "|") {
		return mdText(s)
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// mdBlock is s as a fenced code block, indented for a list item.
func mdBlock(s, lang, indent string) string {
	fence := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	body := strings.ReplaceAll(strings.ReplaceAll(s, "\r", ""), "\n", "\n"+indent)
	return "\n" + indent + fence + lang + "\n" + indent + body + "\n" + indent + fence + "\n\n"
}

func longestRun(s string, c rune) int {
	longest, run := 0, 0
	for _, r := range s {
		if r == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// verdictStatus is a verdict as a cell's status, for its symbol.
func verdictStatus(v check.Verdict) Status {
	switch v {
	case check.Pass:
		return Holds
	case check.Fail:
		return Broken
	}
	return NotRun
}

// mdCell is a cell in the Markdown table: its symbol and words, and the
// number of its note.
func mdCell(c Cell, note int) string {
	s := c.Status.Icon() + " " + mdText(c.Text())
	if note > 0 {
		s += fmt.Sprintf(" [%d]", note)
	}
	return s
}

// WriteMarkdown renders the matrix as GitHub-flavoured Markdown: a table of
// the implementations, the matrix, and numbered notes with each broken
// cell's issues and reproduction commands.
func (t *Table) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# toolnorm compliance matrix: RT-TOOL-8\n\n")
	fmt.Fprintf(&b, "%s. ✅ holds, ❌ broken, — not run. Declared choices are the reading an implementation says it implements: it is compared with the reference configured the same way, and they are not violations.\n\n",
		plural(len(t.Columns), "implementation"))
	b.WriteString("| implementation | language | version | declared choices | verdict | root causes | seed | budget |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, c := range t.Columns {
		choices := "none"
		if len(c.Choices) > 0 {
			choices = mdText(strings.Join(c.Choices, ", "))
		}
		verdict := verdictStatus(c.Verdict).Icon() + " " + mdText(orDash(string(c.Verdict)))
		if c.Failures > 0 {
			verdict += fmt.Sprintf(" (%s, %s)", plural(c.Failures, "failure")+" of the program", plural(c.Restarts, "restart"))
		}
		if c.NotImplemented != "" {
			verdict += " (not implemented: " + mdText(c.NotImplemented) + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | `%d` | %s |\n", mdText(c.Name), mdText(orDash(c.Language)), mdText(orDash(c.Version)), choices, verdict, mdText(c.CausesText()), c.Seed, mdText(orDash(c.Budget)))
	}
	b.WriteString("\n")
	t.writeMarkdownBody(&b, nil)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeMarkdownBody writes the matrix and its notes. mark, if not nil, is
// told each place in b where the report may be cut (cutMarkdown): before
// the matrix, before each note, and before the last line.
func (t *Table) writeMarkdownBody(b *strings.Builder, mark func()) {
	if mark == nil {
		mark = func() {}
	}
	mark()
	b.WriteString("| property | clause |")
	for _, c := range t.Columns {
		fmt.Fprintf(b, " %s |", mdText(c.Name))
	}
	b.WriteString("\n| --- | --- |")
	b.WriteString(strings.Repeat(" --- |", len(t.Columns)))
	b.WriteString("\n")
	var notes strings.Builder
	var noteAt []int // where each note begins in notes
	note := 0
	for _, s := range t.Sections {
		fmt.Fprintf(b, "| **%s** | |%s\n", mdText(s.Title), strings.Repeat(" |", len(t.Columns)))
		for _, r := range s.Rows {
			fmt.Fprintf(b, "| %s: %s | %s |", mdCode(r.ID, true), mdText(r.Statement), mdText(orDash(r.Clause)))
			for i, c := range r.Cells {
				n := 0
				if c.Status == Broken && len(c.Issues) > 0 {
					note++
					n = note
					noteAt = append(noteAt, notes.Len())
					writeNote(&notes, note, t.Columns[i].Name, r, c)
				}
				fmt.Fprintf(b, " %s |", mdCell(c, n))
			}
			b.WriteString("\n")
		}
	}
	if notes.Len() > 0 {
		mark()
		b.WriteString("\n## Broken, with commands that reproduce it\n\n")
		for i, at := range noteAt {
			end := notes.Len()
			if i+1 < len(noteAt) {
				end = noteAt[i+1]
			}
			if i > 0 {
				mark()
			}
			b.WriteString(notes.String()[at:end])
		}
	}
	if t.Made != "" {
		mark()
		fmt.Fprintf(b, "\n<sub>Made by %s.</sub>\n", mdText(t.Made))
	}
}

func writeNote(b *strings.Builder, n int, impl string, r Row, c Cell) {
	row := mdCode(r.ID, false)
	if r.Clause != "" {
		row += " (" + mdText(r.Clause) + ")"
	}
	fmt.Fprintf(b, "%d. **%s**, %s:\n", n, mdText(impl), row)
	for _, is := range c.Issues {
		writeMarkdownIssue(b, is)
	}
	if c.More > 0 {
		fmt.Fprintf(b, "   - and %d more\n", c.More)
	}
}

// writeMarkdownIssue writes one issue as a list item: its title and
// message as text, its file, case and command as code.
func writeMarkdownIssue(b *strings.Builder, is Issue) {
	b.WriteString("   - ")
	if is.What != "" {
		b.WriteString(mdCode(is.What, false) + ": ")
	}
	if is.Title != "" {
		// The message is a paragraph of its own: a title may end the way
		// a message begins ("...: wrong output").
		b.WriteString(mdText(is.Title) + "\n\n     ")
	}
	b.WriteString(mdText(is.Message) + "\n")
	for _, f := range is.Case {
		fmt.Fprintf(b, "     - %s: %s\n", f.Name, mdCode(f.Value, false))
	}
	if is.Cut {
		b.WriteString("     - the budget stopped its minimizing: a repeat may give a smaller case\n")
	}
	if is.Command != "" {
		b.WriteString(mdBlock(is.Command, "sh", "     "))
	}
}

// writeMarkdown is check --format markdown: the verdict, the counts, and
// the report as a matrix of one implementation, with its notes. With
// limit > 0 a report longer than limit bytes is cut to fit (cutMarkdown);
// whole says where the whole report is.
func writeMarkdown(r *check.Report, w io.Writer, limit int, whole string) error {
	var b strings.Builder
	// The places the report may be cut, each with the root causes whose
	// sections come before it.
	var marks []mdCutAt
	shown := 0
	mark := func() { marks = append(marks, mdCutAt{at: b.Len(), causes: shown}) }
	v := verdictStatus(r.Verdict)
	fmt.Fprintf(&b, "## toolnorm check: %s: %s %s\n\n", mdText(display.Text(r.Implementation)), v.Icon(), mdText(strings.ToUpper(string(r.Verdict))+verdictNote(r)))
	if r.NotImplemented != "" {
		fmt.Fprintf(&b, "Not implemented, as declared: %s. Not conformant; the rest is checked in full against the reference doing the same.\n\n", mdText(r.NotImplemented))
	}
	if len(r.Choices) > 0 {
		fmt.Fprintf(&b, "Declared choices (not violations): %s.\n\n", mdText(strings.Join(r.Choices, ", ")))
	}
	if r.Stopped != "" {
		fmt.Fprintf(&b, "Stopped early: %s.\n\n", mdText(r.Stopped+inFlight(r)))
	}
	if r.Incomplete != nil {
		fmt.Fprintf(&b, "Incomplete: %s.", mdText(ShortfallSummary(*r.Incomplete, applicable(r))))
		for _, l := range remedies(r) {
			fmt.Fprintf(&b, " %s.", mdText(sentence(l)))
		}
		b.WriteString("\n\n")
	}
	budget := "no time limit"
	if r.Budget != "" {
		budget = "budget " + r.Budget
	}
	label := repeatLabel(r)
	fmt.Fprintf(&b, "Seed `%d`, %s, %s, %.1f s. %s:\n%s", r.Seed, mdText(casesRun(r)), mdText(budget), r.Seconds, strings.ToUpper(label[:1])+label[1:], mdBlock(r.Repeat, "sh", ""))
	c := r.Corpus
	b.WriteString("| | passed | failed | failures of the program | skipped | not run | in all |\n| --- | --- | --- | --- | --- | --- | --- |\n")
	skipped := fmt.Sprint(c.Skipped)
	if c.Unimplemented > 0 {
		skipped += fmt.Sprintf(" (and %d needing a repair not implemented)", c.Unimplemented)
	}
	fmt.Fprintf(&b, "| corpus vectors | %d | %d | %d | %s | %d | %d |\n", c.Passed, c.Failed, c.Errors, skipped, c.NotRun, c.Vectors)
	n := map[check.Status]int{}
	for _, p := range r.Properties {
		n[p.Status]++
	}
	fmt.Fprintf(&b, "| properties | %s | %d broken | | %d not applicable | %d not checked | %d |\n", holds(n[check.StatusHolds]), n[check.StatusViolated], n[check.StatusNotApplicable], n[check.StatusNotChecked], len(r.Properties))
	unsupported := ""
	if r.Fuzz.Unsupported > 0 {
		unsupported = fmt.Sprintf("%d unsupported ", r.Fuzz.Unsupported)
	}
	fmt.Fprintf(&b, "| fuzzing cases | %d agreed | %d differed (%s) | %d | %s| | %d |\n\n", r.Fuzz.Agreed(), r.Fuzz.Differed, plural(len(r.Fuzz.Findings), "finding"), r.Fuzz.Failures, unsupported, r.Fuzz.Cases)
	if c.Adapted > 0 {
		fmt.Fprintf(&b, "Of the corpus vectors passed and failed, %s.\n\n", adaptedLine(c))
	}
	if len(r.Unsupported) > 0 {
		fmt.Fprintf(&b, "Unsupported, not judged: %s.\n\n", mdText(UnsupportedSummary(r.Unsupported)))
	}
	if l := baselineLine(r); l != "" {
		fmt.Fprintf(&b, "%s.\n\n", mdText(sentence(l)))
	}
	// The head, above, is never cut: the verdict, the counts, the repeat
	// command.
	mark()
	cs := causes(r)
	if len(cs) > 0 {
		fmt.Fprintf(&b, "### %s\n\n", plural(len(cs), "root cause"))
		for _, c := range cs {
			fmt.Fprintf(&b, "%d. %s%s\n", c.N, mdMark(c.RootCause), mdText(rootCauseLine(c.RootCause)))
		}
		for i, c := range cs {
			shown = i
			mark()
			fmt.Fprintf(&b, "\n#### %d. %s (%s)\n\n", c.N, mdText(display.Text(c.Title)), c.Clause)
			fmt.Fprintf(&b, "- id: %s%s\n", mdCode(display.Text(c.ID), false), mdText(baselineNote(c.RootCause)))
			for _, f := range c.Example {
				fmt.Fprintf(&b, "- %s: %s\n", f.Name, mdCode(f.Value, false))
			}
			if c.Cut {
				b.WriteString("- the budget stopped its minimizing: a repeat may give a smaller case\n")
			}
			if c.NotMinimized {
				b.WriteString("- " + mdText(notMinimized) + "\n")
			}
			if c.Artefact {
				fmt.Fprintf(&b, "- probably the adapter's, not the implementation's: %s\n", mdText(c.Fix))
			}
			b.WriteString(mdBlock(c.Command, "sh", ""))
			if c.CommandNote != "" {
				fmt.Fprintf(&b, "\n(%s)\n", mdText(c.CommandNote))
			}
			if len(c.VectorLines) > 0 {
				fmt.Fprintf(&b, "<details><summary>%s</summary>\n\n", plural(len(c.VectorLines), "vector"))
				for j, l := range c.VectorLines {
					if j > 0 {
						// A root cause of thousands of vectors is cut
						// between two, its list closed.
						marks = append(marks, mdCutAt{at: b.Len(), causes: shown, in: c.N, vectors: j, close: "\n</details>\n"})
					}
					fmt.Fprintf(&b, "- %s\n", mdText(l))
				}
				b.WriteString("\n</details>\n")
			}
			if len(c.Properties) > 0 {
				fmt.Fprintf(&b, "\nProperties: %s\n", mdText(strings.Join(c.Properties, ", ")))
			}
			if len(c.Buckets) > 0 {
				fmt.Fprintf(&b, "\nFuzzing buckets: %s\n", mdText(strings.Join(c.Buckets, ", ")))
			}
			if c.Failed != "" {
				fmt.Fprintf(&b, "\n%s\n", mdText(c.Failed))
			}
			if c.StderrLines != "" {
				b.WriteString("\n" + stderrLabel + ":\n" + mdBlock(c.StderrLines, "", ""))
			}
		}
		b.WriteString("\n")
		shown = len(cs)
	}
	if len(r.Events) > 0 {
		mark()
		fmt.Fprintf(&b, "Failures of the program (timeouts, crashes, protocol errors; not violations): %s.\n\n", failureTally(r))
		loose := r.LooseEvents()
		if s := underCauses(r, len(loose)); s != "" {
			fmt.Fprintf(&b, "%s.\n\n", mdText(s))
		}
		list, more := looseShown(loose)
		for i, e := range list {
			if i > 0 {
				mark()
			}
			fmt.Fprintf(&b, "- %s\n", mdText(e.Line))
			if e.Stderr != "" {
				b.WriteString("\n  stderr:\n" + mdBlock(e.Stderr, "", "  "))
			}
		}
		if more > 0 {
			fmt.Fprintf(&b, "- and %d more\n", more)
		}
		b.WriteString("\n")
	}
	t := Matrix([]*check.Report{r})
	t.Made = made(r)
	t.writeMarkdownBody(&b, mark)
	out := b.String()
	if limit > 0 && len(out) > limit {
		out = cutMarkdown(out, marks, len(cs), limit, whole)
	}
	_, err := io.WriteString(w, out)
	return err
}

// mdCutAt is a place a Markdown report may be cut: at its byte offset, a
// section, note or list item begins, and the sections of causes root
// causes are above it. Cut inside the vectors of root cause in (its
// number; 0: none), after vectors of them, close is what closes what is
// open there.
type mdCutAt struct {
	at, causes  int
	in, vectors int
	close       string
}

// cutMarkdown cuts a Markdown report longer than limit bytes at the last
// of marks where what is above it and the closing line fit in limit: where
// a section, note or list item begins, never inside a code block or a
// <details>. The first mark ends the head (the verdict, the counts, the
// repeat command), which is kept whole even past limit. The closing line
// says how many of the report's total root causes' sections and how many
// more lines were left out, and where the whole report is (whole; "": the
// same check with --format html).
func cutMarkdown(full string, marks []mdCutAt, total, limit int, whole string) string {
	if len(marks) == 0 {
		return full
	}
	where := "the same check (the command above) with --format html"
	if whole != "" {
		where = mdCode(whole, false)
	}
	closing := func(m mdCutAt, lines int) string {
		left := plural(lines, "line")
		switch {
		case m.in > 0:
			left = fmt.Sprintf("the rest of root cause %d (after %s), %d more of %d root causes' sections and %d more lines", m.in, plural(m.vectors, "vector"), total-m.causes-1, total, lines)
		case total == 1 && m.causes == 0:
			left = fmt.Sprintf("the root cause's section and %d more lines", lines)
		case total > 0:
			left = fmt.Sprintf("%d of %d root causes' sections and %d more lines", total-m.causes, total, lines)
		}
		return m.close + fmt.Sprintf("\n---\n\nCut to fit %d bytes: left out %s. The whole report: %s.\n", limit, left, where)
	}
	// lines is the count of lines below the mark at, counted on the way.
	lines, at := strings.Count(full, "\n"), 0
	best, bestLines := marks[0], 0
	for i, m := range marks {
		lines -= strings.Count(full[at:m.at], "\n")
		at = m.at
		if i == 0 || m.at+len(closing(m, lines)) <= limit {
			best, bestLines = m, lines
		}
	}
	return full[:best.at] + closing(best, bestLines)
}

// mdMark is how the Markdown report marks a root cause checked against a
// baseline, before its line: "**new**: ", "known: ", or "".
func mdMark(rc check.RootCause) string { return byBaseline(rc, "**new**: ", "known: ") }
