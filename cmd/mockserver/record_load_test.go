package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An upstream answering a board id beyond 2^53-1 and a cart item of 200 years: the proxy's
// recording leaves them out and `mockserver --scenario` starts from it (D197).
func TestProxyRecordingAlwaysLoads(t *testing.T) {
	answers := map[string]string{
		"/services/operations/v1/operations/boards/list": `{"error":false,"message":"ok","data":{"boards":[{"id":9007199254740993,"title":"Huge"},{"id":700001,"title":"Fine"}]}}`,
		"/services/domains/v1/domain-cart/remove": `{"error":false,"message":"ok","data":{"cart":{"session_token":"cart-tok-1","status":"open","currency":"USD",` +
			`"items":[{"id":700041,"domain_name":"long.com","tld":"com","action":"register","years":200,"price":1}]}}}`,
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(answers[r.URL.Path]))
	}))
	defer up.Close()
	file := filepath.Join(t.TempDir(), "rec.yaml")
	base, stop := startProxyCmd(t, nil, "--upstream", up.URL, "--record-scenario", file)
	for path := range answers {
		postJSON(t, base+path, "tok-abc", map[string]any{"session_token": "cart-tok-1", "cart_item_id": 700041})
	}
	if err := stop(); err != nil {
		t.Fatalf("stop the proxy: %v", err)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "title: Fine") || strings.Contains(string(raw), "Huge") || strings.Contains(string(raw), "years: 200") {
		t.Errorf("the recording keeps what the mock refuses or lost what it loads:\n%s", raw)
	}
	_, stopReplay := startMock(t, "--scenario", file)
	if err := stopReplay(); err != nil {
		t.Errorf("the mock from the recording: %v\n%s", err, raw)
	}
}
