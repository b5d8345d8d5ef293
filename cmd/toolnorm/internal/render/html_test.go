package render

import (
	"context"
	"encoding/json"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toolnorm/toolnorm/check"
)

// browser finds headless Chromium. Where it is missing the test is
// skipped, except in CI (.ci/run installs it and sets TOOLNORM_CI).
func browser(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("TOOLNORM_CI") != "" {
		t.Fatal("Chromium is not installed (Debian: chromium); CI must install it")
	}
	t.Skip("Chromium is not installed (Debian: chromium)")
	return ""
}

// probe measures the page as the browser laid it out, with every cell
// opened: which cells overflow their width, and what each cell says in
// words. The test adds it to its copy of the page; the page itself has no
// script.
const probe = `<script>
document.querySelectorAll("details").forEach(d => d.open = true);
const r = {overflow: [], wordless: [], cells: 0};
document.querySelectorAll("td, th").forEach(el => {
  if (el.scrollWidth > el.clientWidth + 1) r.overflow.push(el.tagName + ": " + el.innerText.slice(0, 80));
});
document.querySelectorAll("tbody td:not([colspan])").forEach(td => {
  r.cells++;
  const text = td.innerText.replace(/[\u2705\u274c\u2014]/g, "");
  if (!/\b(holds|broken|not run)\b/.test(text)) r.wordless.push(td.innerText.slice(0, 80));
});
r.width = document.documentElement.scrollWidth;
const pre = document.createElement("pre");
pre.id = "probe";
pre.textContent = JSON.stringify(r);
document.body.appendChild(pre);
</script>`

// TestHTMLInBrowser renders the matrix in headless Chromium: every cell
// says its status in words (the page loses nothing without an emoji font),
// and no cell, opened or not, overflows, even with a value of a thousand
// characters and no space.
func TestHTMLInBrowser(t *testing.T) {
	chromium := browser(t)
	r := python()
	long := strings.Repeat("&amp;", 200) + "\u00a0" + strings.Repeat("x", 400)
	r.Properties[1].Violation.Message = "got " + long
	r.Properties[1].Violation.Command = "printf '%s\\n' '" + strings.Repeat("{\"a\":\"&amp;\"}", 60) + "' | toolnorm corpus replay -"
	m := Matrix([]*check.Report{reference(), r})
	m.Made = "toolnorm test, 2026-12-01 00:00 UTC"
	var b strings.Builder
	if err := m.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := strings.Replace(b.String(), "</body>", probe+"</body>", 1)
	file := filepath.Join(t.TempDir(), "matrix.html")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--window-size=1280,900", "--virtual-time-budget=2000", "--dump-dom", "file://"+file)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	match := regexp.MustCompile(`<pre id="probe">(.*?)</pre>`).FindSubmatch(out)
	if match == nil {
		t.Fatalf("the probe did not run; the page as Chromium left it:\n%.2000s", out)
	}
	var res struct {
		Overflow, Wordless []string
		Cells, Width       int
	}
	if err := json.Unmarshal([]byte(html.UnescapeString(string(match[1]))), &res); err != nil {
		t.Fatal(err)
	}
	if res.Cells < 10 {
		t.Fatalf("the probe saw %d cells", res.Cells)
	}
	for _, o := range res.Overflow {
		t.Errorf("a cell overflows: %s", o)
	}
	for _, w := range res.Wordless {
		t.Errorf("a cell says its status only as a symbol: %q", w)
	}
	if res.Width > 2*1280 {
		t.Errorf("the page is %d px wide", res.Width)
	}
}
