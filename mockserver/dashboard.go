package mockserver

import (
	"bytes"
	"embed"
	"encoding/json"
	"html/template"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/internal/page"
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
	NamedWorlds   bool // named worlds are on (--max-worlds above 0): the page offers to open one
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
		Notes:         wl.notes(),
		Scenarios:     s.scenarioNames(),
		Now:           wl.clockNow(),
		Latency:       s.steering.latency.String(),
		AdminRequired: s.steering.admin != "",
		NamedWorlds:   s.worlds.max >= 0,
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

// tokenPrompt is what the token prompt shows: the world whose dashboard was asked for, where
// the form sends the token, and whether a token was given and refused.
type tokenPrompt struct {
	World  string
	Action string // the world's dashboard
	Wrong  bool
}

// writeTokenPrompt answers the dashboard of the world name without a valid admin token: 401 and
// a form that asks for it and sends it to that world's dashboard, never another world's (D66;
// wrong says a token was given and refused).
func (s *Server) writeTokenPrompt(w http.ResponseWriter, name string, wrong bool) {
	writeHTML(w, http.StatusUnauthorized, "token.html", tokenPrompt{World: name, Action: dashboardOf(name), Wrong: wrong})
}

// dashboardOf is the path of the dashboard of the world name: /__mock/ for the default world,
// /__worlds/<name>/__mock/ for another (the name escaped, though a valid name needs none).
func dashboardOf(name string) string {
	if name == DefaultWorld {
		return dashboardPath
	}
	return WorldPrefix + url.PathEscape(name) + dashboardPath
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
	page.SecurityHeaders(h)
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// dashboardOp is one operation of the dashboard's try-it list: its id, path, access and an
// example body to edit and send.
type dashboardOp struct {
	ID      string
	Path    string
	Access  string // public, bearer or superadmin
	Example string // pretty JSON
}

// dashboardOps lists the 24 operations by path with the spec's request example, its ids
// replaced by those of the world's manifest so that trying it reaches a real record.
func (s *Server) dashboardOps(m fixtures.Manifest) []dashboardOp {
	out := make([]dashboardOp, 0, len(s.ops))
	for _, rt := range s.ops {
		op := dashboardOp{ID: rt.id, Path: rt.path, Access: [...]string{"bearer", "public", "superadmin"}[rt.access]}
		body := map[string]any{}
		if ex := s.requestExample(rt.path); ex != nil {
			if b, err := json.Marshal(ex); err == nil {
				_ = json.Unmarshal(b, &body)
			}
		}
		fillFromManifest(rt.id, body, m)
		pretty, _ := json.MarshalIndent(body, "", "  ")
		op.Example = string(pretty)
		out = append(out, op)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// requestExample is the example of an operation's JSON request body in the spec, if any.
func (s *Server) requestExample(path string) any {
	item := s.doc.Paths.Value(path)
	if item == nil || item.Post == nil || item.Post.RequestBody == nil || item.Post.RequestBody.Value == nil {
		return nil
	}
	mt := item.Post.RequestBody.Value.Content.Get("application/json")
	switch {
	case mt == nil:
		return nil
	case mt.Example != nil:
		return mt.Example
	case mt.Schema != nil && mt.Schema.Value != nil:
		return mt.Schema.Value.Example
	}
	return nil
}

// fillFromManifest puts the manifest's ids and logins into an example body, field by field.
func fillFromManifest(opID string, body map[string]any, m fixtures.Manifest) {
	op := m.Operations
	set := func(field string, v any) {
		if _, ok := body[field]; ok {
			body[field] = v
		}
	}
	set("card_id", op.CardID)
	set("group_id", op.GroupID)
	set("tag_id", op.TagID)
	set("tool_key", op.ToolKey)
	switch opID {
	case "authenticate":
		set("email", m.Users.Member.Email)
		set("password", m.Users.Member.Password)
	case "cardsUpdate":
		set("id", op.CardID)
	case "boardsUpdate":
		set("id", op.BoardID)
	case "groupsDelete":
		set("id", op.GroupID)
	case "masterCardsUpdate":
		set("id", op.MasterCardID)
		set("group_id", op.MasterGroupID)
	case "masterCardsCreate":
		set("group_id", op.MasterGroupID)
	case "masterGroupsUpdate":
		set("id", op.MasterGroupID)
	case "tourCardsUpdate":
		set("id", op.MasterTourCardID)
	case "masterBoardsSync", "masterGroupsCreate":
		set("board_id", op.MasterBoardID)
	}
	if ids := m.AI.ArchivedConversationIDs; len(ids) > 0 {
		set("conversation_id", ids[0])
	}
	if ids := m.Websites.ApprovedVersionIDs; len(ids) > 0 {
		set("version_id", ids[0])
	}
	if carts := m.Domains.Carts; len(carts) > 0 && len(carts[0].ItemIDs) > 0 {
		set("session_token", carts[0].SessionToken)
		set("cart_item_id", carts[0].ItemIDs[0])
	}
	if _, ok := body["entity_id"]; ok {
		body["type"], body["entity_id"] = "page", m.Websites.PageID
	}
}
