package mockserver

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/internal/text"
)

// This file serves the worlds' own controls: GET and DELETE /__mock/worlds, and who may make a
// world (D141).

// worldInfo is one row of GET /__mock/worlds.
type worldInfo struct {
	Name     string    `json:"name"`
	Scenario string    `json:"scenario"`
	Seed     int64     `json:"seed"`
	Snapshot bool      `json:"snapshot"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"last_used"`
	Requests int64     `json:"requests"`
	Now      string    `json:"now"`
	Frozen   bool      `json:"frozen"`
	Notes    []string  `json:"notes"`
	// RecordsBytes is about how much memory its records take, as --max-state-mb counts it.
	RecordsBytes int64 `json:"records_bytes"`
}

func (w *world) info() worldInfo {
	st := w.state()
	src := st.source
	notes := w.notes()
	return worldInfo{
		Name: w.name, Scenario: src.Scenario, Seed: src.Seed, Snapshot: src.Snapshot,
		Created: w.created, LastUsed: time.Unix(0, w.lastUsed.Load()).UTC(),
		Requests: w.requests.Load(), Now: w.clockNow(), Frozen: w.clock.Frozen(), Notes: notes,
		RecordsBytes: st.store.Size(),
	}
}

// handleWorlds lists every world the mock holds.
func (s *Server) handleWorlds(w http.ResponseWriter, _ *http.Request) {
	all := s.worlds.all()
	rows := make([]worldInfo, len(all))
	for i, wl := range all {
		rows[i] = wl.info()
	}
	writeJSON(w, http.StatusOK, map[string]any{"worlds": rows, "max_worlds": max(s.worlds.max, 0), "max_state_bytes": s.stateLimit()}) // --max-worlds 0 turns them off: shown as 0
}

// clip shortens a value quoted in a message to about n bytes (text.Clip).
func clip(s string, n int) string { return text.Clip(s, n) }

// handleWorldDelete forgets the named world of ?name= (a test worker's teardown); its tokens
// and records go with it, and its next use builds it afresh. The default world is never
// forgotten: it is reset to the configured seed and scenario instead (D100, D147).
func (s *Server) handleWorldDelete(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("name")
	switch {
	case len(r.URL.Query()["name"]) > 1:
		writeValidation(w, map[string][]string{"name": {"The name field is given more than once: delete one world at a time."}})
		return
	case name == "":
		writeValidation(w, map[string][]string{"name": {"The name field is required: give the world to delete as ?name=."}})
		return
	case name == DefaultWorld:
		def, src := s.worlds.def, Source{Seed: s.cfg.Seed, Scenario: s.cfg.Scenario}
		if err := s.resetWorld(def, src); err != nil {
			s.writeResetError(w, def, src, err)
			return
		}
		s.logins.clearClient(clientAddr(r))
		markBuild(w, def.state())
		writeJSON(w, http.StatusOK, map[string]any{"reset": DefaultWorld})
		return
	}
	switch gone, busy := s.forgetWhenIdle(r, name); {
	case gone == nil:
		s.writeNoSuchWorld(w, name)
	case busy > 0:
		requests := "requests"
		if busy == 1 {
			requests = "request"
		}
		writeShapeA(w, http.StatusConflict, fmt.Sprintf("The world %q is still busy with %d %s after %s: it was not deleted; try again when they have finished.", clip(name, 80), busy, requests, deleteWait))
	default:
		markBuild(w, gone) // the last build of the records dropped
		writeJSON(w, http.StatusOK, map[string]any{"deleted": name})
	}
}

// deleteWait bounds how long DELETE /__mock/worlds waits for a world's requests (D186).
const deleteWait = 10 * time.Second

// forgetWhenIdle drops the named world once no request but r is being served in it, waiting up
// to deleteWait (D186): a request in flight, such as a create in its latency fault, finishes
// in its world and its answer holds. gone is the state of the world found, nil when there is no
// such world; busy is how many requests still ran at the deadline (the world then stays).
func (s *Server) forgetWhenIdle(r *http.Request, name string) (gone *worldState, busy int64) {
	reg := s.worlds
	deadline := time.Now().Add(deleteWait)
	for {
		reg.mu.Lock()
		wl, found := reg.named[name]
		if found {
			busy = wl.inflight.Load()
			if s.worldOf(r) == wl {
				busy-- // the delete itself, sent in the world it deletes
			}
			if busy <= 0 {
				reg.forget(wl)
				reg.remember(name, fmt.Sprintf("a world of this name was deleted at %s (DELETE /__mock/worlds), its records with it; this one was made afresh", time.Now().UTC().Format(time.RFC3339)))
			}
		}
		reg.mu.Unlock()
		if !found {
			return nil, 0
		}
		if busy <= 0 || time.Now().After(deadline) || r.Context().Err() != nil {
			return wl.state(), max(busy, 0)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// mayCreateWorld decides, before a world is looked up for creation, whether r may bring the
// world name into being (D141): making a world (and perhaps evicting another) is a change to
// the mock, so it takes a request the mock admits. The mock's own endpoints keep their guards
// (Host, Origin, admin token); any request must also come under a Host the host policy allows,
// from no foreign Origin the CORS policy refuses, and not be a page's no-CORS load from another
// site (an <img>, <script>, <form> or navigation: Sec-Fetch-Site and Sec-Fetch-Mode say so; a
// page of the same site, such as the app under test on another port of localhost, may link).
// A refused request is answered 403 shape (b) and no world is made.
func (s *Server) mayCreateWorld(w http.ResponseWriter, r *http.Request, name string) bool {
	if strings.HasPrefix(r.URL.Path, "/__mock") && !(s.hostAllowed(w, r) && s.admitted(w, r, name)) {
		return false
	}
	why := s.steering.hosts.Refuses(r, "New worlds are made only under")
	origin := requestOrigin(r)
	switch {
	case why != "":
	case origin != "" && origin != "http://"+r.Host && origin != "https://"+r.Host && !s.corsAllows(origin):
		why = "New worlds are made only by requests from the mock's own pages and the origins of --cors-origins; " + notListed(r, origin)
	case crossSite(r) && r.Header.Get("Sec-Fetch-Mode") != "cors":
		why = "A page of another site loading this address without CORS (an image, a script, a form) does not make a world; call it with fetch or XMLHttpRequest."
	}
	if why == "" {
		return true
	}
	if s.spendUnbound(w, r) {
		writeShapeB(w, http.StatusForbidden, "The world "+strconv.Quote(clip(name, 80))+" does not exist and this request may not make it. "+why)
	}
	return false
}

// corsListed tells whether --cors-origins names origin itself (not only by *).
func (s *Server) corsListed(origin string) bool {
	origin = strings.TrimRight(origin, "/")
	for _, o := range s.cfg.CORSOrigins {
		if o != "*" && strings.EqualFold(strings.TrimRight(o, "/"), origin) && origin != "" {
			return true
		}
	}
	return false
}

// corsAllows tells whether the API answers origin (any, by default, D103).
func (s *Server) corsAllows(origin string) bool {
	allow, _ := s.steering.cors.allowOrigin(strings.TrimRight(origin, "/"), false)
	return allow != ""
}
