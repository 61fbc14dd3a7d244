package proxy_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/internal/stalled"
	"github.com/opsapi/mocktoolkit/proxy"
)

// The request bodies the proxy reads ahead for checking are bounded over every exchange (D216):
// clients that each announce a body just under 1 MiB to an operation and hold its last bytes
// fill the budget, and the next such body is refused with 503 shape (a), not forwarded.
func TestRequestBodiesReadAheadAreBounded(t *testing.T) {
	p, base := serveProxy(t, newMock(t))
	// 72 × ~1 MiB: more than the budget; the post comes once one of them was refused. 128 KiB:
	// over what the budget has left, and small enough to sit in the socket buffers, so the client
	// has written it all when the proxy answers and closes.
	var status int
	var body []byte
	stalled.WhileFull(t, strings.TrimPrefix(base, "http://"), "/v1/authenticate", 72, 1<<20-1024, func() int {
		res, err := http.Post(base+"/v1/authenticate", "application/json", strings.NewReader(`{"email":"`+strings.Repeat("a", 128<<10)+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ = io.ReadAll(res.Body)
		res.Body.Close()
		status = res.StatusCode
		return status
	})
	if status != http.StatusServiceUnavailable || !strings.Contains(string(body), "not forwarded") {
		t.Errorf("a body while the budget is held: %d %s, want 503 saying it was not forwarded", status, body)
	}
	refusedInJournal(t, p, http.StatusServiceUnavailable)
}

// refusedInJournal checks that the proxy's own refusals with status are in its journal, by
// operation, saying they were not forwarded, and that the reports count none of them as
// checked: they appeared nowhere, and a run's refusals could not be told from the traffic.
func refusedInJournal(t *testing.T, p *proxy.Proxy, status int) {
	t.Helper()
	n := 0
	for _, e := range p.Exchanges(0) {
		if e.Status == status {
			n++
			if e.Operation != "authenticate" || !strings.Contains(strings.Join(e.Notes, " "), "not forwarded") || len(e.Violations) != 0 {
				t.Errorf("the refusal's journal entry: operation %q, notes %q, violations %v; want the operation, a note saying it was not forwarded, no violation", e.Operation, e.Notes, e.Violations)
			}
		}
	}
	if n == 0 {
		t.Errorf("no exchange with status %d in the journal, want the proxy's refusals", status)
	}
	if r := p.Report(); r.Checked >= r.Exchanges {
		t.Errorf("report: %d of %d exchanges checked, want the refusals among those not checked", r.Checked, r.Exchanges)
	}
}

// Clients that announce bodies to an operation and stop sending them cannot keep every other
// client from being forwarded until the read timeout (D216): once they have been arriving for
// a second, the slowest give way (408, not forwarded) to a body that needs room.
func TestStalledBodiesGiveWayToOthers(t *testing.T) {
	p, base := serveProxy(t, newMock(t))
	held := stalled.AfterGrace(t, strings.TrimPrefix(base, "http://"), "/v1/authenticate", 72, 1<<20-1024) // more than the budget holds
	res, err := http.Post(base+"/v1/authenticate", "application/json", strings.NewReader(`{"email":"`+strings.Repeat("a", 128<<10)+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode == http.StatusServiceUnavailable || res.StatusCode == http.StatusRequestTimeout {
		t.Fatalf("a body while stalled bodies held the budget: %d %.300s, want it forwarded once they gave way", res.StatusCode, body)
	}
	gaveWay := 0
	for _, answer := range held.Answers() {
		switch {
		case strings.HasPrefix(answer, "HTTP/1.1 503"): // past the budget when it arrived
		case strings.HasPrefix(answer, "HTTP/1.1 408") && strings.Contains(answer, "not forwarded"):
			gaveWay++
		default:
			t.Errorf("a stalled body was answered %.300q, want 408 saying it was not forwarded (or 503 past the budget)", answer)
		}
	}
	if gaveWay == 0 {
		t.Error("no stalled body gave way")
	}
	refusedInJournal(t, p, http.StatusRequestTimeout)
}
