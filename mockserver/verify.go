package mockserver

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/opsapi/mocktoolkit/internal/querycheck"
)

// statusFilter matches an answer's status: one code ("404"), a class ("4xx"), or any ("").
type statusFilter struct {
	code  int
	class int // 1 to 5 for "1xx" to "5xx"
}

func (f statusFilter) match(status int) bool {
	switch {
	case f.code != 0:
		return status == f.code
	case f.class != 0:
		return status/100 == f.class
	}
	return true
}

// parseStatusFilter reads ?status=: a code from 100 to 599 or a class 1xx to 5xx.
func parseStatusFilter(v string) (statusFilter, bool) {
	if v == "" {
		return statusFilter{}, true
	}
	if len(v) == 3 && strings.HasSuffix(strings.ToLower(v), "xx") && v[0] >= '1' && v[0] <= '5' {
		return statusFilter{class: int(v[0] - '0')}, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 100 || n > 599 {
		return statusFilter{}, false
	}
	return statusFilter{code: n}, true
}

// journalQuery is what GET /__mock/requests and /__mock/requests/count read from the query
// (D105): the world whose journal to read (the request's world when not given), an operation
// id, a status or class, and how many entries at most.
type journalQuery struct {
	world     *world
	operation string
	status    statusFilter
	limit     int
}

// readJournalQuery checks the query, answering 422 naming each wrong parameter (or 404 for a
// world the mock does not hold).
func (s *Server) readJournalQuery(w http.ResponseWriter, r *http.Request) (journalQuery, bool) {
	q := r.URL.Query()
	jq := journalQuery{world: s.worldOf(r), operation: q.Get("operation")}
	fields := map[string][]string{}
	for _, name := range []string{"operation", "status", "limit"} {
		switch {
		case len(q[name]) > 1: // which one was meant is a guess: none is taken
			fields[name] = []string{"The " + name + " parameter is given more than once: give it once."}
		case q.Has(name) && q.Get(name) == "": // ?limit= listed the whole journal
			fields[name] = []string{"The " + name + " parameter is empty: give it a value, or leave it out."}
		}
	}
	if len(q["world"]) > 1 {
		fields["world"] = []string{"The world parameter is given more than once: give it once."}
	}
	if v := q.Get("limit"); v != "" {
		n, ok := querycheck.Limit(v)
		if !ok {
			fields["limit"] = []string{"The limit must be a positive integer."}
		}
		jq.limit = n
	}
	if jq.operation != "" {
		if _, ok := s.routeByID(jq.operation); !ok {
			fields["operation"] = []string{"The operation must be an operation id of the spec, such as cardsCreate."}
		}
	}
	var ok bool
	if jq.status, ok = parseStatusFilter(q.Get("status")); !ok {
		fields["status"] = []string{"The status must be an HTTP status from 100 to 599 or a class such as 4xx."}
	}
	if q.Has("world") && q.Get("world") == "" { // an unset variable, most likely: not the default world
		fields["world"] = []string{"The world parameter names no world: give a name, or leave it out for the request's own world."}
	}
	if len(fields) > 0 {
		writeValidation(w, fields)
		return jq, false
	}
	if name := q.Get("world"); name != "" {
		wl, found := s.worlds.lookup(name)
		if !found {
			s.writeNoSuchWorld(w, name)
			return jq, false
		}
		jq.world = wl
	}
	return jq, true
}

// handleRequests answers the journal of a world, newest first, filtered by operation and
// status; ?limit=N keeps the newest N that match.
func (s *Server) handleRequests(w http.ResponseWriter, r *http.Request) {
	jq, ok := s.readJournalQuery(w, r)
	if !ok {
		return
	}
	all := jq.world.journal.list(0)
	out := make([]journalEntry, 0, len(all))
	for _, e := range all {
		if (jq.operation == "" || e.Operation == jq.operation) && jq.status.match(e.Status) {
			out = append(out, e)
			if jq.limit > 0 && len(out) == jq.limit {
				break
			}
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"world": jq.world.name, "requests": out})
}

// handleRequestsCount answers how often a world's operation was called (with a status that
// matches) since its journal was last cleared: WireMock's verify (D105). Counts are kept apart
// from the journal's entries, so they are exact past its 200 entries.
func (s *Server) handleRequestsCount(w http.ResponseWriter, r *http.Request) {
	jq, ok := s.readJournalQuery(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"world": jq.world.name, "operation": jq.operation, "status": r.URL.Query().Get("status"),
		"count": jq.world.journal.count(jq.operation, jq.status),
	})
}

// handleRequestsClear empties the journal of the request's world and its counts.
func (s *Server) handleRequestsClear(w http.ResponseWriter, r *http.Request) {
	s.worldOf(r).journal.clear()
	writeJSON(w, http.StatusOK, map[string]any{"requests": []journalEntry{}})
}
