package mockserver_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A client sending a path of a megabyte cannot write a megabyte of log, or of journal, per
// request: the request line and the journal entry show the path cut, with a marker (30 such
// requests once wrote 28 MB of log).
func TestAPathOfAMegabyteIsLoggedCut(t *testing.T) {
	var log lockedBuffer
	m := newMock(t, mockserver.Config{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	long := strings.Repeat("E", 900<<10)
	m.ctl(http.MethodGet, "/__mock/"+long, nil).wantStatus(t, http.StatusNotFound)
	m.ctl(http.MethodPost, "/nope/"+long, "{}").wantStatus(t, http.StatusNotFound)
	for _, line := range strings.Split(log.String(), "\n") {
		if len(line) > 8<<10 {
			t.Errorf("a log line of %d bytes for a long path: %.200s…", len(line), line)
		}
	}
	var j struct {
		Requests []struct{ Path string } `json:"requests"`
	}
	if err := json.Unmarshal(m.ctl(http.MethodGet, "/__mock/requests?limit=1", nil).wantStatus(t, http.StatusOK).raw, &j); err != nil || len(j.Requests) != 1 {
		t.Fatalf("journal: %v %d", err, len(j.Requests))
	}
	if p := j.Requests[0].Path; len(p) > 4<<10 || !strings.HasSuffix(p, "[cut]") {
		t.Errorf("the journal shows a path of %d bytes (%.60q…), want it cut with a marker", len(p), p)
	}
}

// Paths are shown as they were sent, escapes kept: "%3F" shown decoded reads as a query
// string, and the request copied from the dashboard would be another. A credential sent
// escaped is still kept out.
func TestPathsAreShownAsSent(t *testing.T) {
	var log lockedBuffer
	m := newMock(t, mockserver.Config{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	a := m.ctl(http.MethodPost, pTagsList+"%3Fa=b", "{}").wantStatus(t, http.StatusNotFound)
	if !strings.Contains(string(a.raw), `tags/list%3Fa=b`) {
		t.Errorf("the 404 names the path %s, want it as sent (tags/list%%3Fa=b)", a.raw)
	}
	var j struct {
		Requests []struct{ Path string } `json:"requests"`
	}
	if err := json.Unmarshal(m.ctl(http.MethodGet, "/__mock/requests?limit=1", nil).wantStatus(t, http.StatusOK).raw, &j); err != nil || len(j.Requests) != 1 {
		t.Fatalf("journal: %v %d", err, len(j.Requests))
	}
	if p := j.Requests[0].Path; !strings.HasSuffix(p, "tags/list%3Fa=b") {
		t.Errorf("the journal shows the path %q, want it as sent (…tags/list%%3Fa=b)", p)
	}
	if !strings.Contains(log.String(), "tags/list%3Fa=b") {
		t.Errorf("the log does not show the path as sent:\n%s", log.String())
	}

	password := m.manifest.Users.Member.Password
	m.login(m.manifest.Users.Member) // the world has seen it
	var escaped strings.Builder
	for i := 0; i < len(password); i++ {
		fmt.Fprintf(&escaped, "%%%02X", password[i])
	}
	m.ctl(http.MethodPost, "/v1/authenticate/"+escaped.String(), "{}")
	if out := log.String(); strings.Contains(out, password) || strings.Contains(out, escaped.String()) {
		t.Errorf("the log shows a password sent escaped in a path:\n%s", out)
	}
	if raw := string(m.ctl(http.MethodGet, "/__mock/requests?limit=1", nil).raw); strings.Contains(raw, password) || strings.Contains(raw, escaped.String()) {
		t.Errorf("the journal shows a password sent escaped in a path: %s", raw)
	}
}

// A forced code is read as a status is written, three digits: "+500" and "0500" are no code the
// operation lists, and are refused with 400 naming it, as "5e2" is (they once forced a 500).
func TestPreferCodeIsReadAsWritten(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	for _, code := range []string{"+500", "0500", "500.0", " 5 00"} {
		a := m.ctl(http.MethodPost, pTagsList, "{}", "Prefer", "code="+code)
		if a.status != http.StatusBadRequest || !strings.Contains(string(a.raw), "is not an answer of") {
			t.Errorf("Prefer: code=%s: %d %s, want 400 naming the code", code, a.status, a.raw)
		}
	}
	m.ctl(http.MethodPost, pTagsList, "{}", "Prefer", "code=500").wantStatus(t, http.StatusInternalServerError)
}

// The refusal of a Prefer code the operation does not answer reads in full in the journal: its
// wording has no "code=<value>" for the redaction of credentials to take for one.
func TestPreferRefusalReadsWholeInTheJournal(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	st, _ := send(t, "POST", m.url+"/services/operations/v1/operations/tags/list", "", "{}", "Content-Type", "application/json", "Prefer", "code=418")
	if st != http.StatusBadRequest {
		t.Fatalf("Prefer: code=418 on tags/list: %d, want 400", st)
	}
	a := m.ctl(http.MethodGet, "/__mock/requests?limit=1", nil).wantStatus(t, 200)
	if !strings.Contains(string(a.raw), "418, which is not an answer of tagsList") || strings.Contains(string(a.raw), "code=[redacted]") {
		t.Errorf("the journal hides the refusal's words: %s", a.raw)
	}
}
