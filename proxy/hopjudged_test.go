package proxy_test

import (
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/proxy"
)

// Headers an answer's Connection header names are not forwarded (D140), but the answer is
// judged as the upstream sent it, as a client that reaches the deployment directly (the suite)
// judges it: the proxy failed a sound answer whose Connection named its rate-limit headers
// (HDR-1) or its Content-Type (DOC-1) where the suite passed it.
func TestHeadersNamedByConnectionAreJudgedAsSent(t *testing.T) {
	body := []byte(`{"error":false,"message":"ok","data":{"tags":[]}}`)
	for _, named := range []string{"X-RateLimit-Remaining, X-RateLimit-Limit", "Content-Type"} {
		up := rawUpstream(t, append([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: "+named+", close\r\n"+
			"X-RateLimit-Limit: 60\r\nX-RateLimit-Remaining: 59\r\nContent-Length: "+itoa(len(body))+"\r\n\r\n"), body...))
		p, res, _ := exchangeThroughProxy(t, up)
		if v := res.Header.Get(proxy.HeaderViolations); v != "" {
			t.Errorf("Connection: %s: the verdict says %s, want none", named, v)
		}
		for _, h := range strings.Split(named, ", ") {
			if res.Header.Get(h) != "" {
				t.Errorf("Connection: %s: %s was forwarded", named, h)
			}
		}
		es := p.Exchanges(1)
		if len(es) != 1 || !strings.Contains(strings.Join(es[0].Notes, " "), "in its Connection header") {
			t.Errorf("Connection: %s: the exchange does not say the headers were judged but not forwarded: %+v", named, es)
		}
	}
}
