package proxy

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// An answer whose headers pass 1 MiB gets the proxy's 502 with UP-1, as its message says: net/
// http's own bound is 10 MiB, so headers of 1 to 10 MiB passed on unjudged, each held in
// memory while written to a client that did not read (200 such clients took the proxy past
// 300 MB).
func TestAnswerHeadersPastAMebibyteAreRefused(t *testing.T) {
	_, front := proxyInFront(t, func(w http.ResponseWriter) {
		w.Header().Set("X-Big", strings.Repeat("x", 2<<20))
		_, _ = w.Write([]byte(`{"error":false,"message":"ok","data":[]}`))
	})
	res, err := http.Post(front.URL+"/services/operations/v1/operations/tags/list", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusBadGateway || res.Header.Get(HeaderViolations) != string(rules.UP1) || !strings.Contains(string(body), "larger than the proxy reads (1 MiB)") {
		t.Errorf("an answer with 2 MiB of headers: %d %q %.300s, want the proxy's 502 with UP-1 naming the 1 MiB bound", res.StatusCode, res.Header.Get(HeaderViolations), body)
	}
}
