package mockserver

import (
	"bytes"
	"embed"
	"encoding/json"
	"html/template"
	"net/http"
	"strconv"
	"strings"
)

// dashboardPath is the dashboard page.
const dashboardPath = "/__mock/"

//go:embed dashboard
var dashboardFiles embed.FS

// dashboardTemplates are the page and the token prompt, with the script and style inlined, so
// the page needs no other request (and no admin token for assets).
var dashboardTemplates = template.Must(template.New("").Funcs(template.FuncMap{
	"asset": func(name string) (string, error) {
		b, err := dashboardFiles.ReadFile("dashboard/" + name)
		return string(b), err
	},
	"js":  func(s string) template.JS { return template.JS(s) },
	"css": func(s string) template.CSS { return template.CSS(s) },
}).ParseFS(dashboardFiles, "dashboard/*.html"))

// dashboardData is what the page shows when it is served; the script refreshes the journal,
// the clock, the worlds and the fault rules afterwards.
type dashboardData struct {
	World         string // the world the page is opened in
	Prefix        string // the path prefix of that world ("" for the default world)
	Seed          int64
	Scenario      string
	Snapshot      bool
	Notes         []string
	Scenarios     []string
	Now           string
	Latency       string
	AdminRequired bool
	Manifest      any
	ManifestJSON  string
	Operations    []string
	Ops           []dashboardOp
	Faults        []faultRule
	Requests      []journalEntry
}

// handleDashboard serves the dashboard of the request's world: the worlds, fixture
// credentials and ids, the journal, the controls (reset, clock, faults, snapshots, log in) and
// the 24 operations with an example body to try.
func (s *Server) handleDashboard(w http.ResponseWriter, r *http.Request) {
	wl := s.worldOf(r)
	st := wl.state()
	pretty, _ := json.MarshalIndent(st.manifest, "", "  ")
	data := dashboardData{
		World:         wl.name,
		Seed:          st.source.Seed,
		Scenario:      st.source.Scenario,
		Snapshot:      st.source.Snapshot,
		Notes:         st.notes,
		Scenarios:     s.scenarioNames(),
		Now:           wl.clockNow(),
		Latency:       s.steering.latency.String(),
		AdminRequired: s.steering.admin != "",
		Manifest:      st.manifest,
		ManifestJSON:  string(pretty),
		Operations:    s.operationIDs(),
		Ops:           s.dashboardOps(st.manifest),
		Faults:        wl.faults.list(),
		Requests:      wl.journal.list(50),
	}
	if wl.name != DefaultWorld {
		data.Prefix = strings.TrimSuffix(WorldPrefix, "/") + "/" + wl.name
	}
	writeHTML(w, http.StatusOK, "index.html", data)
}

// writeTokenPrompt answers the dashboard without a valid admin token: 401 and a form that
// asks for it (wrong says a token was given and refused).
func (s *Server) writeTokenPrompt(w http.ResponseWriter, wrong bool) {
	writeHTML(w, http.StatusUnauthorized, "token.html", map[string]bool{"Wrong": wrong})
}

// writeHTML renders a dashboard template; HTML pages are the only answers under /__mock/ that
// are not JSON.
func writeHTML(w http.ResponseWriter, status int, name string, data any) {
	var buf bytes.Buffer
	if err := dashboardTemplates.ExecuteTemplate(&buf, name, data); err != nil {
		writeShapeA(w, http.StatusInternalServerError, "The dashboard could not be rendered.")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}
