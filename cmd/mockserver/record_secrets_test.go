package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// memberPassword is the fixture member's password the upstream's manifest gives.
func memberPassword(t *testing.T, url string) string {
	t.Helper()
	var m struct {
		Users struct{ Member struct{ Password string } }
	}
	res, err := http.Get(url + "/__mock/fixtures")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil || m.Users.Member.Password == "" {
		t.Fatalf("no member password in the manifest: %v", err)
	}
	return m.Users.Member.Password
}

// The credentials the proxy saw (the login's password, the bearer token) never reach the
// recording in clear, wherever a text holds them, their start or their end (D196, D200); the file
// still loads.
func TestProxyRecordingRedactsCredentials(t *testing.T) {
	upstream, stopUpstream := startMock(t)
	defer func() { _ = stopUpstream() }()
	file := filepath.Join(t.TempDir(), "rec.yaml")
	base, stop := startProxyCmd(t, nil, "--upstream", upstream, "--record-scenario", file)
	tok := loginMember(t, base)
	pw := memberPassword(t, upstream)
	title := "Call jane.doe@acme.com pw=" + pw + " tok " + tok
	postJSON(t, base+"/services/operations/v1/operations/cards/create", tok, map[string]any{"title": title, "description": "token " + tok + " (it starts " + tok[:20] + "…, ends …" + tok[len(tok)-20:] + ")"})
	// Credentials the proxy never saw sent are redacted by pattern, as in the journals (D142).
	postJSON(t, base+"/services/operations/v1/operations/cards/create", tok, map[string]any{"title": "db", "description": "use postgres://app:DbPw77abcQ@db/x or Authorization: Bearer DescBearer77abcQxyz, api_key=DescKey77abcQ"})
	if err := stop(); err != nil {
		t.Fatalf("stop the proxy: %v", err)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{pw, tok, tok[:20], tok[len(tok)-20:], "jane.doe@acme.com", "DbPw77abcQ", "DescBearer77abcQxyz", "DescKey77abcQ"} {
		if strings.Contains(string(raw), leak) {
			t.Errorf("the recording holds %q in clear:\n%s", leak, raw)
		}
	}
	if !strings.Contains(string(raw), "pw=[redacted] tok [redacted]") || !strings.Contains(string(raw), "starts [redacted]…, ends …[redacted])") {
		t.Errorf("the recording lacks the redacted title:\n%s", raw)
	}
	_, stopReplay := startMock(t, "--scenario", file)
	_ = stopReplay()
}
