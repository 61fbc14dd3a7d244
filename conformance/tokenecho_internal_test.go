package conformance

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// A deployment that quotes the bearer token it was sent in free text (a debug message) does
// not put it in the reports: the failure text (stdout, JUnit, JSON) showed it in clear while
// the HTML hid it. Every token the suite sends is a credential the reports scrub, quoted with
// "Bearer " or alone.
func TestReportsHideATokenTheDeploymentEchoes(t *testing.T) {
	const token = "live-token-7f3a9c2e51b8"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"error":false,"message":"hello ` + r.Header.Get("Authorization") + `, yours is ` + token + `","data":[]}`))
	}))
	defer srv.Close()
	c, err := NewClient(context.Background(), srv.URL, Config{Timeout: 5e9})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := c.Send(context.Background(), Request{Op: OpTagsList, As: "the member", Token: token, Body: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if d := ex.Describe(); strings.Contains(d, token) {
		t.Errorf("the failure text shows the token sent:\n%s", d)
	}
}

// The toolkit proxy's own 502 (UP-1 in its verdict) is a request without an answer, as the same
// request sent directly would be: an error, counted toward the run's end, where it failed specs
// for STATUS-1 and HDR-1 and a deployment gone down behind the proxy never ended the run. A
// deployment's own 502 is its answer, and judged.
func TestTheProxysNoAnswerIsNoAnswer(t *testing.T) {
	var deployments atomic.Bool // the 502 is the deployment's own, not the proxy's
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if !deployments.Load() {
			w.Header().Set("X-Contract-Violations", "UP-1")
		}
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte(`{"error":true,"message":"The proxy could not get an answer from the upstream: the connection was refused.","data":[]}`))
	}))
	defer srv.Close()
	c, err := NewClient(context.Background(), srv.URL, Config{Timeout: 5e9})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := c.Send(context.Background(), Request{Op: OpTagsList, Body: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "got no answer") {
			t.Fatalf("the proxy's 502: %v, want an error saying no answer came", err)
		}
	}
	if n := c.Unanswered(); n != 3 {
		t.Errorf("%d requests counted unanswered, want 3", n)
	}
	deployments.Store(true)
	if ex, err := c.Send(context.Background(), Request{Op: OpTagsList, Body: map[string]any{}}); err != nil || ex.Status != http.StatusBadGateway || c.Unanswered() != 0 {
		t.Errorf("a deployment's own 502: %v, unanswered %d; want its answer, judged", err, c.Unanswered())
	}
}

// An answer in a content coding the suite did not ask for and cannot decode (br) is left
// unjudged, saying so, as the proxy leaves it: its bytes were judged as JSON, and a body no
// client could read passed the suite while the proxy noted it unjudged.
func TestAnswersInAnUnreadCodingAreUnjudged(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "br")
		_, _ = w.Write([]byte(`{"error":false,"message":"ok","data":{"tags":[]}}`))
	}))
	defer srv.Close()
	c, err := NewClient(context.Background(), srv.URL, Config{Timeout: 5e9})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := c.Send(context.Background(), Request{Op: OpTagsList, Body: map[string]any{}})
	if err != nil || !ex.BodyPartial || ex.JSON != nil || ex.JSONErr == nil || !strings.Contains(ex.JSONErr.Error(), `"br"`) {
		t.Errorf("a br answer: %v, partial %v, JSON %v, why %v; want it unjudged, naming the coding", err, ex.BodyPartial, ex.JSON, ex.JSONErr)
	}
}
