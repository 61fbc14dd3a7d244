package proxy_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

const pTourCardsUpdate = "/services/operations/v1/operations/tour/cards/update"

// The proxy judges TRANS-1 as the suite does: a tour card update answered with another status
// than the one given breaks it. A deployment that reads the card back a moment after writing it
// answers the status a second update, overlapping the first, gave: that is no violation, since
// the card's status did move as asked, and the proxy saw the other update under way.
func TestProxyJudgesTheStatusATourCardUpdateAnswers(t *testing.T) {
	card := manifest().Operations.MasterTourCardID
	opposite := func(_ *int, _ http.Header, body map[string]any) {
		if c, ok := body["data"].(map[string]any)["card"].(map[string]any); ok && c["status"] == "closed" {
			c["status"] = "open"
		}
	}
	t.Run("the reference mock", func(t *testing.T) {
		s := startProxy(t, newMock(t))
		token := s.login(t, manifest().Users.Member)
		for _, status := range []string{"closed", "open"} {
			if got := violations(s.post(t, pTourCardsUpdate, token, fmt.Sprintf(`{"id": %d, "status": %q}`, card, status))); len(got) > 0 {
				t.Errorf("moving the tour card to %s: violations %v, want none", status, got)
			}
		}
	})
	t.Run("a deployment answering another status", func(t *testing.T) {
		s := startProxy(t, breakAnswer(newMock(t), pTourCardsUpdate, opposite))
		token := s.login(t, manifest().Users.Member)
		if got := violations(s.post(t, pTourCardsUpdate, token, fmt.Sprintf(`{"id": %d, "status": "closed"}`, card))); !slices.Contains(got, string(rules.TRANS1)) {
			t.Errorf("a card moved to closed answered open: violations %v, want %s", got, rules.TRANS1)
		}
	})
	t.Run("a deployment reading the card back after an overlapping update", func(t *testing.T) {
		s := startProxy(t, readsBack(newMock(t), 300*time.Millisecond))
		token := s.login(t, manifest().Users.Member)
		statuses := []string{"closed", "open"}
		got := make([]answer, len(statuses))
		errs := make([]error, len(statuses))
		var wg sync.WaitGroup
		for i, status := range statuses {
			wg.Go(func() {
				time.Sleep(time.Duration(i) * 100 * time.Millisecond) // "open" is written while "closed" waits to read back
				got[i], errs[i] = postConcurrently(s, token, fmt.Sprintf(`{"id": %d, "status": %q}`, card, status))
			})
		}
		wg.Wait()
		for i, a := range got {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			if v := violations(a); len(v) > 0 {
				t.Errorf("moving the card to %s, overlapping the other update: violations %v, want none\n%s", statuses[i], v, a.body)
			}
		}
		if !strings.Contains(string(got[0].body), `"status":"open"`) {
			t.Fatalf("the update to closed should have read back open, the other update's status: %s", got[0].body)
		}
	})
}

// An update whose client left before the deployment answered it may still be carried out
// there, after another update of the card was sent: the other's answer may show its status.
func TestProxyKeepsAnAbandonedUpdateUnderWay(t *testing.T) {
	card := manifest().Operations.MasterTourCardID
	s := startProxy(t, writesLate(newMock(t), "open", 300*time.Millisecond, 400*time.Millisecond))
	token := s.login(t, manifest().Users.Member)
	quick := &http.Client{Timeout: 100 * time.Millisecond}
	req, err := http.NewRequest(http.MethodPost, s.url+pTourCardsUpdate, strings.NewReader(fmt.Sprintf(`{"id": %d, "status": "open"}`, card)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	if res, err := quick.Do(req); err == nil { // gives up before the deployment writes "open"
		res.Body.Close()
		t.Fatalf("the update to open was answered %d within 100 ms; the test wants it abandoned", res.StatusCode)
	}
	a := s.post(t, pTourCardsUpdate, token, fmt.Sprintf(`{"id": %d, "status": "closed"}`, card))
	if !strings.Contains(string(a.body), `"status":"open"`) {
		t.Fatalf("the update to closed should have read back open, the abandoned update's status: %s", a.body)
	}
	if v := violations(a); len(v) > 0 {
		t.Errorf("an update overlapping an abandoned one the deployment carried out later: violations %v, want none", v)
	}
}

// writesLate is a deployment that carries out a tour card update to slow only after delay,
// whether or not its client is still there, and answers every update with the card's status as
// it reads it back readBack later.
func writesLate(next http.Handler, slow string, delay, readBack time.Duration) http.Handler {
	var mu sync.Mutex
	latest := map[float64]any{}
	answer := breakAnswer(next, pTourCardsUpdate, func(_ *int, _ http.Header, body map[string]any) {
		time.Sleep(readBack)
		c, ok := body["data"].(map[string]any)["card"].(map[string]any)
		if !ok {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if id, ok := c["id"].(float64); ok {
			c["status"] = latest[id]
		}
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == pTourCardsUpdate {
			raw, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(raw))
			var req map[string]any
			_ = json.Unmarshal(raw, &req)
			if req["status"] == slow {
				time.Sleep(delay)
			}
			mu.Lock()
			if id, ok := req["id"].(float64); ok {
				latest[id] = req["status"]
			}
			mu.Unlock()
		}
		answer.ServeHTTP(w, r)
	})
}

// readsBack is a deployment that writes a tour card's status at once, waits, and answers the
// status the card then has: another update written in between shows in the answer.
func readsBack(next http.Handler, wait time.Duration) http.Handler {
	return writesLate(next, "", 0, wait)
}

// postConcurrently is setup.post for a goroutine: it returns the error instead of failing.
func postConcurrently(s *setup, token, body string) (answer, error) {
	req, err := http.NewRequest(http.MethodPost, s.url+pTourCardsUpdate, strings.NewReader(body))
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := s.client.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return answer{status: res.StatusCode, header: res.Header, body: b}, err
}
