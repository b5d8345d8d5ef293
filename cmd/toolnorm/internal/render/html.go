package render

import (
	"bytes"
	"html/template"
	"io"

	"github.com/toolnorm/toolnorm/check"
)

// WriteHTML renders the matrix as one static HTML page: inline CSS, no
// script, nothing fetched, so that it opens from disk. Every status is
// shown in words beside its symbol (a page read without an emoji font
// loses nothing), long values wrap inside their cells, and an opened cell
// shows each issue once.
func (t *Table) WriteHTML(w io.Writer) error {
	var b bytes.Buffer
	if err := htmlPage.Execute(&b, t); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// writeHTML is check --format html: the report as a matrix of one.
func writeHTML(r *check.Report, w io.Writer, made string) error {
	t := Matrix([]*check.Report{r})
	t.Made = made
	t.Run = details(r)
	t.Causes = causes(r)
	return t.WriteHTML(w)
}

var htmlPage = template.Must(template.New("matrix").Funcs(template.FuncMap{
	"verdict":  verdictStatus,
	"plural":   plural,
	"sentence": sentence,
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolnorm compliance matrix: RT-TOOL-8</title>
<style>
body { margin: 1.2rem; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: #fff; }
h1 { font-size: 1.35rem; margin: 0 0 .3rem; }
p.legend { margin: 0 0 .8rem; color: #57606a; max-width: 60rem; }
table { border-collapse: separate; border-spacing: 0; border-top: 1px solid #d0d7de; border-left: 1px solid #d0d7de; table-layout: auto; }
th, td { border-right: 1px solid #d0d7de; border-bottom: 1px solid #d0d7de; padding: .3rem .5rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
thead th { background: #f6f8fa; min-width: 10rem; max-width: 22rem; }
thead tr.names th { position: sticky; top: 0; z-index: 2; }
thead th.corner { position: sticky; left: 0; z-index: 3; }
thead tr.about th { font-weight: normal; font-size: .85em; color: #424a53; }
.name { font-size: 1.05em; }
.verdict { white-space: nowrap; font-weight: 600; }
.verdict.pass { color: #1a7f37; }
.verdict.fail { color: #cf222e; }
.verdict.incomplete { color: #9a6700; }
span.new { padding: 0 .4em; border-radius: 1em; background: #ffebe9; color: #cf222e; font-weight: 600; }
span.known { padding: 0 .4em; border-radius: 1em; background: #f6f8fa; color: #57606a; }
section.run { margin: 0 0 1rem; max-width: 60rem; }
section.run h2 { font-size: 1.05rem; margin: .8rem 0 .3rem; }
ul.counts { margin: .2rem 0; padding-left: 1.2rem; }
.choice { display: inline-block; margin: .1rem .15rem 0 0; padding: 0 .45em; border: 1px solid #54aeff; border-radius: 1em; background: #ddf4ff; color: #0550ae; }
.muted { color: #6e7781; }
tbody th { position: sticky; left: 0; z-index: 1; background: #fff; font-weight: normal; min-width: 16rem; max-width: 28rem; }
tbody th code { font-weight: 600; }
.clause { color: #57606a; font-size: .85em; white-space: nowrap; }
.stmt { color: #424a53; font-size: .85em; }
tr.group th { background: #eaeef2; font-weight: 600; text-transform: uppercase; letter-spacing: .03em; font-size: .8em; }
tr.group td { background: #eaeef2; }
td { min-width: 10rem; max-width: 22rem; font-size: .9em; }
td.holds { background: #dafbe1; }
td.broken { background: #ffebe9; }
td.not-run { background: #f6f8fa; color: #57606a; }
.status { font-weight: 600; }
.sum { color: #424a53; }
summary { cursor: pointer; }
details > div { margin: .4rem 0 .2rem; padding-top: .3rem; border-top: 1px solid #f0c8c4; }
details p { margin: .2rem 0; }
dl { margin: .2rem 0; display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0 .4rem; }
dt { color: #57606a; }
dd { margin: 0; min-width: 0; }
code { overflow-wrap: anywhere; word-break: break-word; }
pre { margin: .1rem 0 .3rem; padding: .25rem .4rem; max-height: 12rem; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; background: #fff; border: 1px solid #d0d7de; border-radius: 4px; font-size: .85em; }
footer { margin-top: 1rem; color: #6e7781; font-size: .85em; }
</style>
</head>
<body>
<h1>toolnorm compliance matrix: RT-TOOL-8</h1>
<p class="legend">{{plural (len .Columns) "implementation"}}. <span aria-hidden="true">✅</span> holds · <span aria-hidden="true">❌</span> broken (open the cell for each issue and a command that reproduces it) · <span aria-hidden="true">—</span> not run. Declared choices are the reading an implementation says it implements: it is compared with the reference configured the same way, and they are not violations.</p>
{{with .Run}}<section class="run">
<p>{{.Cases}}.{{with .Stopped}} Stopped early: {{.}}.{{end}}</p>
<ul class="counts">{{range .Counts}}<li>{{.}}</li>{{end}}</ul>
{{with .Incomplete}}<p class="verdict incomplete">Incomplete: {{.}}.</p>{{range $.Run.Remedies}}<p>{{sentence .}}.</p>{{end}}{{end}}
{{with .Baseline}}<p>{{sentence .}}.</p>{{end}}
<p>{{.RepeatLabel}}:</p>
<pre><code>{{.Repeat}}</code></pre>
</section>
{{end}}
{{with .Causes}}<section class="causes">
<h2>{{plural (len .) "root cause"}}</h2>
<ol>{{range .}}<li>{{with .Baseline}}<span class="{{.}}">{{.}}</span> {{end}}<span class="clause">{{.Clause}}</span> {{.Title}} <span class="sum">({{.Shown}})</span>{{if .SaysArtefact}} <span class="muted">probably the adapter's</span>{{end}}</li>{{end}}</ol>
{{range .}}<details><summary>{{.N}}. {{.Title}} <span class="clause">{{.Clause}}</span> <span class="sum">({{.Shown}})</span></summary>
<p class="id">id <code>{{.ID}}</code>{{with .Baseline}} <span class="{{.}}">{{.}}</span>{{end}}</p><dl>{{range .Example}}<dt>{{.Name}}</dt><dd><code>{{.Value}}</code></dd>{{end}}</dl>{{if .Cut}}<p class="muted">The budget stopped its minimizing: a repeat may give a smaller case.</p>{{end}}{{if .NotMinimized}}<p class="muted">Not minimized: the case as found (a failure of the program is not run again).</p>{{end}}{{if .Artefact}}<p>Probably the adapter's, not the implementation's: {{.Fix}}</p>{{end}}<pre><code>{{.Command}}</code></pre>{{with .CommandNote}}<p class="muted">({{.}})</p>{{end}}
{{with .VectorLines}}<details><summary>{{plural (len .) "vector"}}</summary><ul>{{range .}}<li><code>{{.}}</code></li>{{end}}</ul></details>{{end}}{{with .Properties}}<p>Properties: {{range .}}<code>{{.}}</code> {{end}}</p>{{end}}{{with .Buckets}}<p>Fuzzing buckets: {{range .}}<code>{{.}}</code> {{end}}</p>{{end}}{{with .Failed}}<p>{{.}}</p>{{end}}{{with .StderrLines}}<p class="muted">stderr (the end, at its first failure):</p><pre><code>{{.}}</code></pre>{{end}}</details>
{{end}}</section>
{{end}}{{with .Run}}{{if or .FailureCount .Failures}}<section class="run failures">
{{with .FailureCount}}<h2>Failures of the program (timeouts, crashes, protocol errors; not violations): {{.}}</h2>
{{end}}{{with .UnderCauses}}<p>{{.}}.</p>
{{end}}{{range .Failures}}<div class="failure"><p>{{.Line}}</p>{{with .Command}}<pre><code>{{.}}</code></pre>{{end}}{{with .Stderr}}<p class="muted">stderr:</p><pre><code>{{.}}</code></pre>{{end}}</div>
{{end}}{{with .More}}<p>and {{.}} more</p>{{end}}</section>
{{end}}{{end}}<table>
<thead>
<tr class="names"><th class="corner" scope="col">property</th>{{range .Columns}}{{$v := verdict .Verdict}}<th scope="col"><div class="name">{{.Name}}</div><div class="verdict {{.Verdict}}"><span aria-hidden="true">{{$v.Icon}}</span> {{or .Verdict "no verdict"}}</div></th>{{end}}</tr>
<tr class="about"><th class="corner" scope="row">implementation</th>{{range .Columns}}<th>
<div>{{with .Language}}{{.}}{{else}}<span class="muted">language —</span>{{end}} · {{with .Version}}{{.}}{{else}}<span class="muted">version —</span>{{end}}</div>
<div>{{if .Choices}}declared choices: {{range .Choices}}<span class="choice">{{.}}</span>{{end}}{{else}}<span class="muted">no declared choices</span>{{end}}</div>
<div>{{if .NoCauses}}<span class="muted">root causes —</span>{{else}}{{plural .RootCauses "root cause"}}{{with .Artefacts}} ({{.}} probably the adapter's){{end}}{{end}}</div>
<div>seed {{.Seed}} · {{with .Budget}}budget {{.}}{{else}}no time limit{{end}}</div>
{{if not .Started.IsZero}}<div class="muted">{{.Started.UTC.Format "2006-01-02 15:04 MST"}}</div>{{end}}{{if .Failures}}<div>{{plural .Failures "failure"}} of the program, {{plural .Restarts "restart"}}</div>{{end}}{{with .NotImplemented}}<div class="verdict fail">not implemented: {{.}}</div>{{end}}
</th>{{end}}</tr>
</thead>
{{$n := len .Columns}}{{range .Sections}}<tbody>
<tr class="group"><th scope="rowgroup">{{.Title}}</th><td colspan="{{$n}}"></td></tr>
{{range .Rows}}<tr><th scope="row"><code>{{.ID}}</code>{{with .Clause}} <span class="clause">{{.}}</span>{{end}}<div class="stmt">{{.Statement}}</div></th>
{{range .Cells}}<td class="{{.Status}}">{{if and (eq .Status "broken") .Issues}}<details><summary><span aria-hidden="true">{{.Status.Icon}}</span> <span class="status">{{.Status.Label}}</span>{{with .Summary}} <span class="sum">({{.}})</span>{{end}}</summary>
{{range .Issues}}<div>{{with .What}}<p><code>{{.}}</code></p>{{end}}{{with .Title}}<p>{{.}}</p>{{end}}<p>{{.Message}}</p>{{with .Case}}<dl>{{range .}}<dt>{{.Name}}</dt><dd><code>{{.Value}}</code></dd>{{end}}</dl>{{end}}{{if .Cut}}<p class="muted">The budget stopped its minimizing: a repeat may give a smaller case.</p>{{end}}{{with .Command}}<pre><code>{{.}}</code></pre>{{end}}</div>
{{end}}{{with .More}}<p>and {{.}} more</p>{{end}}</details>{{else}}<span aria-hidden="true">{{.Status.Icon}}</span> <span class="status">{{.Status.Label}}</span>{{with .Summary}} <span class="sum">{{.}}</span>{{end}}{{end}}</td>
{{end}}</tr>
{{end}}</tbody>
{{end}}</table>
{{with .Made}}<footer>Made by {{.}}.</footer>{{end}}
</body>
</html>
`))
