package mockserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/internal/redact"
)

// The journal keeps exactly the last N requests, never fewer once full, newest first (D143).
func TestJournalKeepsExactlyTheLastN(t *testing.T) {
	j := newJournal(5, newJournalBudget(journalBytes))
	for i := 1; i <= 23; i++ {
		j.add(journalEntry{Method: "GET", Path: fmt.Sprintf("/%d", i)})
		want := min(i, 5)
		got := j.list(0)
		if len(got) != want {
			t.Fatalf("after %d requests the journal holds %d, want %d", i, len(got), want)
		}
		for k, e := range got {
			if e.Path != fmt.Sprintf("/%d", i-k) {
				t.Fatalf("after %d requests entry %d is %s, want /%d", i, k, e.Path, i-k)
			}
		}
	}
}

// 64 worlds of large unauthenticated requests to unknown paths never make the journals hold
// more than the bound shared by every world; each world keeps its newest entries (D143).
func TestJournalBoundAcrossWorlds(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Repeat("x", maxJournalBody)
	big := strings.Repeat("h", redact.MaxHeaderValue-10)
	for w := range 64 { // a request to an unknown path makes no world (D185)
		s.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, fmt.Sprintf("/__worlds/w%d/__mock/clock", w), nil))
	}
	for round := range 12 {
		for w := range 64 {
			req := httptest.NewRequest(http.MethodPost, fmt.Sprintf("/__worlds/w%d/nope/%d", w, round), strings.NewReader(body))
			for h := range 7 {
				req.Header.Set(fmt.Sprintf("X-Pad-%d", h), big)
			}
			s.ServeHTTP(httptest.NewRecorder(), req)
		}
	}
	s.journals.mu.Lock()
	used := s.journals.used
	s.journals.mu.Unlock()
	if used > journalBytes || used < journalBytes/2 {
		t.Errorf("the journals hold %d bytes in all, want at most %d and the bound in use", used, journalBytes)
	}
	for _, wl := range s.worlds.all()[1:] {
		got := wl.journal.list(0)
		if len(got) == 0 || got[0].Path != "/nope/11" {
			t.Fatalf("world %s keeps %d entries, newest %v: want its last request kept", wl.name, len(got), got)
		}
	}
}
