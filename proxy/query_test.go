package proxy_test

import (
	"net/http"
	"sync"
	"testing"
)

// The query reaches the upstream as the client wrote it, parameters net/url cannot parse
// included (a ';', a bad escape): the proxy forwards, it does not clean.
func TestQueryForwardedAsSent(t *testing.T) {
	var mu sync.Mutex
	var got string
	_, base := serveProxy(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = r.URL.RawQuery
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	for _, q := range []string{"a=1;b=2", "filter=a;b&page=2", "x=%41&y&&z=1;2", "q=%zz", "plain=1&b=2"} {
		res, err := http.Get(base + "/nope?" + q)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		mu.Lock()
		if got != q {
			t.Errorf("?%s reached the upstream as ?%s", q, got)
		}
		mu.Unlock()
	}
}
