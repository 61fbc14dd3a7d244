package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/internal/page"
	"github.com/opsapi/mocktoolkit/internal/querycheck"
)

// controlPrefix is where the proxy serves its own pages; requests under it are never forwarded
// (D98).
const controlPrefix = "/__proxy/"

// serveControl answers the proxy's own pages: the dashboard and the journal.
func (p *Proxy) serveControl(w http.ResponseWriter, r *http.Request) {
	var handle http.HandlerFunc
	var reads []string // the query parameters the page reads
	switch r.URL.Path {
	case "/__proxy", controlPrefix:
		handle = p.handleDashboard
	case controlPrefix + "exchanges":
		handle, reads = p.handleExchanges, []string{"limit"}
	case controlPrefix + "rules":
		handle = func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, http.StatusOK, map[string]any{"rules": Rules})
		}
	default:
		writeJSON(w, http.StatusNotFound, map[string]any{"error": true, "message": "The proxy has no page " + r.URL.Path + ".", "data": []any{}})
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeJSON(w, http.StatusMethodNotAllowed, map[string]any{"error": true, "message": "Use GET.", "data": []any{}})
		return
	}
	if msg := querycheck.Problem("GET", r.URL.Path, r.URL.RawQuery, reads, false); msg != "" { // a filter it does not read would list every exchange as if filtered
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": true, "message": msg, "data": []any{}})
		return
	}
	// A journal of large bodies is tens of MB: clients not reading it each held a copy.
	bw := p.pages.Wrap(w, func(w http.ResponseWriter) {
		w.Header().Set("Retry-After", "5")
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"error": true, "message": fmt.Sprintf("The proxy is still writing %d MiB of its pages to clients that have not read them; try again in a moment.", maxPagesInFlight>>20), "data": []any{}})
	})
	defer bw.Done()
	// One page is built at a time: fifty clients asking for a journal of large bodies at once
	// each encoded their own copy.
	built, release, ok := p.pageBuilds.Take(r.Context(), bw)
	if !ok {
		return
	}
	defer release()
	handle(built, r)
}

// maxPagesInFlight bounds the bytes of the proxy's large pages being written at once.
const maxPagesInFlight = 64 << 20

// writeJSON answers v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":true,"message":"The answer could not be encoded.","data":[]}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("Cache-Control", "no-store")
	page.SecurityHeaders(h)
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// dashboardRows is how many exchanges the dashboard shows.
const dashboardRows = 100

// dashboardPage is the dashboard: totals and a table of the newest exchanges; it reloads
// itself every 5 seconds.
var dashboardPage = template.Must(template.New("dashboard").Funcs(template.FuncMap{
	"rules":     func(vs []Violation) string { return strings.Join(ruleIDs(vs), ", ") },
	"statement": func(id rules.ID) string { return rulesByID[id].Statement },
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5">
<title>Contract proxy of {{.Report.Upstream}}</title>
<style>
body{font:14px system-ui,sans-serif;margin:1.5rem;color:#222}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
.bad{background:#fdecea}code{font-size:13px}.muted{color:#777}
</style></head><body>
<h1>Contract proxy</h1>
<p>Forwarding to <code>{{.Report.Upstream}}</code>. {{.Report.Exchanges}} exchanges, {{.Report.Checked}} of them operations checked;
<strong>{{.Report.DeploymentViolations}}</strong> deployment violations, {{.Report.ClientViolations}} client violations.
JSON: <a href="/__proxy/exchanges">exchanges</a>, <a href="/__proxy/rules">rules</a>. This page reloads every 5 seconds.</p>
<table><thead><tr><th>#</th><th>Time (UTC)</th><th>Request</th><th>Operation</th><th>Status</th><th>Violations</th><th>Details</th></tr></thead><tbody>
{{range .Exchanges}}<tr class="{{if .Violations}}bad{{end}}">
<td>{{.ID}}</td><td>{{.Time.Format "15:04:05"}}</td><td><code>{{.Method}} {{.Path}}</code></td>
<td>{{if .Operation}}{{.Operation}}{{else}}<span class="muted">unchecked</span>{{end}}</td><td>{{.Status}}</td>
<td>{{rules .Violations}}</td>
<td>{{range .Violations}}<div title="{{statement .Rule}}"><strong>{{.Rule}}</strong> ({{.Party}}): {{.Detail}}</div>{{end}}{{range .Notes}}<div class="muted">{{.}}</div>{{end}}</td>
</tr>{{else}}<tr><td colspan="7" class="muted">No exchange yet: send requests to this address instead of the upstream.</td></tr>{{end}}
</tbody></table></body></html>
`))

// handleDashboard serves the dashboard page.
func (p *Proxy) handleDashboard(w http.ResponseWriter, _ *http.Request) {
	var buf bytes.Buffer
	data := map[string]any{"Report": p.Report(), "Exchanges": p.journal.list(dashboardRows)}
	if err := dashboardPage.Execute(&buf, data); err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]any{"error": true, "message": "The dashboard could not be rendered.", "data": []any{}})
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Cache-Control", "no-store")
	page.SecurityHeaders(h) // it shows a deployment's traffic: no other site may frame it
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes())
}
