package mockserver_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/internal/stalled"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// The request bodies held at once are bounded over every connection (D216): clients that each
// announce a body just under the per-request limit and hold its last bytes fill the budget,
// and the next such body is refused at once with 503 shape (a) and Retry-After, unread, instead
// of the mock taking another MiB for it; once they are gone, bodies are taken again.
func TestRequestBodiesHeldAtOnceAreBounded(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	host := strings.TrimPrefix(m.url, "http://")
	// 72 × ~1 MiB: more than the budget; the post comes once one of them was refused.
	var res *http.Response
	var body []byte
	held := stalled.WhileFull(t, host, "/v1/authenticate", 72, 1<<20-1024, func() int {
		var err error
		res, err = http.Post(m.url+"/v1/authenticate", "application/json", strings.NewReader(`{"email":"`+strings.Repeat("a", 512<<10)+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ = io.ReadAll(res.Body)
		res.Body.Close()
		return res.StatusCode
	})
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" || !strings.Contains(string(body), `"error":true`) {
		t.Errorf("a body while the budget is held: %d %s, want 503 shape (a) with Retry-After", res.StatusCode, body)
	}
	// An answer of the API's paths, this refusal too, carries the rate-limit headers.
	if res.Header.Get("X-RateLimit-Limit") == "" || res.Header.Get("X-RateLimit-Remaining") == "" {
		t.Errorf("the 503 carries no rate-limit headers: %v", res.Header)
	}
	held.Close()
	time.Sleep(300 * time.Millisecond)
	creds := m.manifest.Users.Member
	m.ctl(http.MethodPost, "/v1/authenticate", map[string]any{"email": creds.Email, "password": creds.Password}).wantStatus(t, http.StatusOK)
}

// Clients that announce bodies and stop sending them cannot keep every other client out until
// the read timeout (D216): once they have been arriving for a second, the slowest give way
// (408 shape (a), their connections closed) to a body that needs room, which is then served.
func TestStalledBodiesGiveWayToOthers(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	host := strings.TrimPrefix(m.url, "http://")
	held := stalled.AfterGrace(t, host, "/__worlds/idle/v1/authenticate", 72, 1<<20-1024) // more than the budget holds
	creds := m.manifest.Users.Member
	login := fmt.Sprintf(`{"email":%q,"password":%q,"pad":"%s"}`, creds.Email, creds.Password, strings.Repeat("a", 512<<10))
	res, err := http.Post(m.url+"/__worlds/busy/v1/authenticate", "application/json", strings.NewReader(login))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("a login while stalled bodies held the budget: %d %.300s, want 200 once they gave way", res.StatusCode, body)
	}
	gaveWay := 0
	for _, answer := range held.Answers() {
		switch {
		case strings.HasPrefix(answer, "HTTP/1.1 503"): // past the budget when it arrived
		case strings.HasPrefix(answer, "HTTP/1.1 408") && strings.Contains(answer, `"error":true`) && strings.Contains(answer, "too slowly"):
			gaveWay++
		default:
			t.Errorf("a stalled body was answered %.300q, want 408 shape (a) saying why (or 503 past the budget)", answer)
		}
	}
	if gaveWay == 0 || gaveWay > 2 {
		t.Errorf("%d stalled bodies gave way for one of 512 KiB, want one or two", gaveWay)
	}
}
