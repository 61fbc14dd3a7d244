package mockserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A call that acted on the world a reset replaced is not recorded in the new world (D62, D105,
// D173): its verify count, journal and flow hold only calls that acted on the records the world
// holds. Creates racing a reset recorded their 200s after the reset had cleared the journal and
// the flow, so the count named tags the world did not hold.
func TestResetKeepsCallsOnTheOldWorldOutOfTheNewOne(t *testing.T) {
	h, err := mockserver.New(mockserver.Config{Now: testNow, RateLimit: 1 << 30})
	if err != nil {
		t.Fatalf("mockserver.New: %v", err)
	}
	rounds, stop := 0, time.Now().Add(2*time.Second)
	for ; rounds < 200 && (rounds < 20 || time.Now().Before(stop)); rounds++ {
		fixtures := inProcessJSON(t, h, http.MethodPost, "/__mock/reset", "", "{}", 200)["fixtures"]
		member := fixtures.(map[string]any)["users"].(map[string]any)["member"].(map[string]any)
		login := fmt.Sprintf(`{"email":%q,"password":%q}`, member["email"], member["password"])
		token := inProcessJSON(t, h, http.MethodPost, "/v1/authenticate", "", login, 200)["data"].(map[string]any)["token"].(string)

		createsRacing(h, token, rounds, func() { inProcessJSON(t, h, http.MethodPost, "/__mock/reset", "", "{}", 200) })

		held := tagsHeld(t, h, login)
		count := inProcessJSON(t, h, http.MethodGet, "/__mock/requests/count?operation=tagsCreate&status=2xx", "", "", 200)["count"].(float64)
		if int(count) != len(held) {
			t.Errorf("round %d: GET /__mock/requests/count counts %v tagsCreate 2xx since the reset; the world holds %d of the tags created", rounds, count, len(held))
		}
		for _, e := range inProcessJSON(t, h, http.MethodGet, "/__mock/requests?operation=tagsCreate&status=2xx", "", "", 200)["requests"].([]any) {
			body, _ := e.(map[string]any)["request"].(map[string]any)["body"].(map[string]any)
			if name, _ := body["name"].(string); !held[name] {
				t.Errorf("round %d: the journal holds a %v tagsCreate of %q, a tag the world does not hold", rounds, e.(map[string]any)["status"], name)
				break
			}
		}
		if created := flowCreates(t, h); created != len(held) {
			t.Errorf("round %d: the flow holds %d tagsCreate 2xx steps; the world holds %d of the tags created", rounds, created, len(held))
		}
		if t.Failed() {
			break
		}
	}
	t.Logf("%d rounds", rounds)
}

// A loaded snapshot starts a new flow (D173): a call that acted on the records it replaced is
// not recorded in it. (The journal spans a loaded snapshot: its counts are since the reset.)
func TestLoadedSnapshotKeepsCallsOnTheOldRecordsOutOfTheFlow(t *testing.T) {
	h, err := mockserver.New(mockserver.Config{Now: testNow, RateLimit: 1 << 30})
	if err != nil {
		t.Fatalf("mockserver.New: %v", err)
	}
	fixtures := inProcessJSON(t, h, http.MethodPost, "/__mock/reset", "", "{}", 200)["fixtures"]
	member := fixtures.(map[string]any)["users"].(map[string]any)["member"].(map[string]any)
	login := fmt.Sprintf(`{"email":%q,"password":%q}`, member["email"], member["password"])
	_, snapshot := inProcess(h, http.MethodGet, "/__mock/state", "", "") // no token of the member's: it dies with the load
	rounds, stop := 0, time.Now().Add(2*time.Second)
	for ; rounds < 200 && (rounds < 20 || time.Now().Before(stop)); rounds++ {
		inProcessJSON(t, h, http.MethodPut, "/__mock/state", "", string(snapshot), 200)
		token := inProcessJSON(t, h, http.MethodPost, "/v1/authenticate", "", login, 200)["data"].(map[string]any)["token"].(string)
		createsRacing(h, token, rounds, func() { inProcessJSON(t, h, http.MethodPut, "/__mock/state", "", string(snapshot), 200) })
		held := tagsHeld(t, h, login)
		if created := flowCreates(t, h); created != len(held) {
			t.Fatalf("round %d: the flow holds %d tagsCreate 2xx steps; the world holds %d of the tags created", rounds, created, len(held))
		}
	}
	t.Logf("%d rounds", rounds)
}

// createsRacing creates tags with token from 64 goroutines, calls replace (a reset, a loaded
// snapshot) a few milliseconds in, and returns once every goroutine has met a refusal (the
// token dies with the records it was issued in).
func createsRacing(h http.Handler, token string, round int, replace func()) {
	var wg sync.WaitGroup
	for g := range 64 {
		wg.Go(func() {
			for i := 0; ; i++ {
				body := fmt.Sprintf(`{"name":"r-%d-%d-%d"}`, round, g, i)
				if status, _ := inProcess(h, http.MethodPost, "/services/operations/v1/operations/tags/create", token, body); status != http.StatusOK {
					return
				}
			}
		})
	}
	time.Sleep(time.Duration(1+round%8) * time.Millisecond)
	replace()
	wg.Wait()
}

// tagsHeld are the names of the tags created by createsRacing that the world holds, read by
// the member logging in with login.
func tagsHeld(t *testing.T, h http.Handler, login string) map[string]bool {
	t.Helper()
	token := inProcessJSON(t, h, http.MethodPost, "/v1/authenticate", "", login, 200)["data"].(map[string]any)["token"].(string)
	held := map[string]bool{}
	for _, tag := range inProcessJSON(t, h, http.MethodPost, "/services/operations/v1/operations/tags/list", token, "{}", 200)["data"].(map[string]any)["tags"].([]any) {
		if name, _ := tag.(map[string]any)["name"].(string); strings.HasPrefix(name, "r-") {
			held[name] = true
		}
	}
	return held
}

// flowCreates is how many tagsCreate steps of the world's flow answered 2xx.
func flowCreates(t *testing.T, h http.Handler) int {
	t.Helper()
	created := 0
	for _, st := range inProcessJSON(t, h, http.MethodGet, "/__mock/flow", "", "", 200)["steps"].([]any) {
		step := st.(map[string]any)
		if status := step["answer"].(map[string]any)["status"].(float64); step["operation"] == "tagsCreate" && status < 300 {
			created++
		}
	}
	return created
}

// inProcess sends one request to h in process and returns the status and the body.
func inProcess(h http.Handler, method, path, token, body string) (int, []byte) {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

// inProcessJSON is inProcess, failing unless the answer has status and is a JSON object.
func inProcessJSON(t *testing.T, h http.Handler, method, path, token, body string, status int) map[string]any {
	t.Helper()
	got, raw := inProcess(h, method, path, token, body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil || got != status {
		t.Fatalf("%s %s: %d %s, want %d and a JSON object", method, path, got, raw, status)
	}
	return out
}
