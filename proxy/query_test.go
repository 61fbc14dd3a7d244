package proxy_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"

	"github.com/opsapi/mocktoolkit/proxy"
)

// The query reaches the upstream as the client wrote it, parameters net/url cannot parse
// included (a ';', a bad escape): the proxy forwards, it does not clean.
func TestQueryForwardedAsSent(t *testing.T) {
	var mu sync.Mutex
	var got string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = r.URL.RawQuery
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(up.Close)
	u, _ := url.Parse(up.URL)
	p, err := proxy.New(proxy.Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	for _, q := range []string{"a=1;b=2", "filter=a;b&page=2", "x=%41&y&&z=1;2", "q=%zz", "plain=1&b=2"} {
		res, err := http.Get(srv.URL + "/nope?" + q)
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
