package conformance

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
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
