package proxy_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// An upstream answer without a Content-Type reaches the client without one: the proxy relays
// headers as the upstream sent them (README), and net/http sniffed "text/plain" in.
func TestAnswerWithoutContentTypeIsRelayedAsSent(t *testing.T) {
	_, base := serveProxy(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // no Content-Type, and none sniffed
		w.Header().Set("X-RateLimit-Limit", "60")
		w.Header().Set("X-RateLimit-Remaining", "59")
		_, _ = io.WriteString(w, `{"error":false,"message":"ok","data":{"tags":[]}}`)
	}))
	res, err := http.Post(base+"/services/operations/v1/operations/tags/list", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct, sent := res.Header["Content-Type"]; sent {
		t.Errorf("the client got Content-Type %q, which the upstream did not send", ct)
	}
}
