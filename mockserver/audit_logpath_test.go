package mockserver_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// lockedBuffer is a bytes.Buffer the server's goroutines and the test share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// The request log (a CI artifact, read where the journal is not) never shows a credential a
// path carries: a ';token=' parameter, the request's own bearer token, the admin token, and any
// password or token the world has seen (D200).
func TestRequestLogKeepsCredentialsOutOfPaths(t *testing.T) {
	var log lockedBuffer
	const admin = "S3cretAdm1nTok-xyz"
	m := newMock(t, mockserver.Config{Logger: slog.New(slog.NewTextHandler(&log, nil)), AdminToken: admin})
	var mf fixtures.Manifest
	if err := json.Unmarshal(m.ctl(http.MethodGet, "/__mock/fixtures", nil, "X-Mock-Admin-Token", admin).wantStatus(t, 200).raw, &mf); err != nil {
		t.Fatal(err)
	}
	tok := m.post(pAuthenticate, "", map[string]any{"email": mf.Users.Member.Email, "password": mf.Users.Member.Password}).wantStatus(t, 200).data()["token"].(string)
	m.ctl(http.MethodPost, pTagsList+";token="+tok, "{}", "Authorization", "Bearer "+tok)
	m.ctl(http.MethodPost, "/services/operations/v1/operations/"+tok, "{}", "Authorization", "Bearer "+tok)
	m.ctl(http.MethodPost, "/services/operations/v1/operations/"+admin, "{}")
	// A token or password the world has seen, in a path sent without it as a credential.
	m.ctl(http.MethodPost, "/v1/session/"+tok, "{}")
	m.ctl(http.MethodPost, "/v1/authenticate/"+mf.Users.Member.Password, "{}")
	out := log.String()
	if !strings.Contains(out, "msg=request") {
		t.Fatalf("no request lines logged: %s", out)
	}
	for _, secret := range []string{tok, admin, mf.Users.Member.Password} {
		if strings.Contains(out, secret) {
			t.Errorf("the request log shows the credential %q:\n%s", secret, out)
		}
	}
}
