package proxy_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/opsapi/mocktoolkit/mockserver"
	"github.com/opsapi/mocktoolkit/proxy"
)

// A proxy in front of a deployment (here the reference mock, with one answer broken):
// clients call the proxy instead, and each answer that breaks a rule carries
// X-Contract-Violations.
func Example() {
	mock, err := mockserver.New(mockserver.Config{})
	if err != nil {
		panic(err)
	}
	// The "deployment" forgets Retry-After on its 429s.
	deployment := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mock.ServeHTTP(dropRetryAfter{w}, r)
	}))
	defer deployment.Close()

	upstream, _ := url.Parse(deployment.URL)
	p, err := proxy.New(proxy.Config{Upstream: upstream})
	if err != nil {
		panic(err)
	}
	front := httptest.NewServer(p)
	defer front.Close()

	call := func(prefer string) {
		req, _ := http.NewRequest(http.MethodPost, front.URL+"/services/domains/v1/domain-cart/remove",
			strings.NewReader(`{"session_token": "no-such-cart", "cart_item_id": 1}`))
		req.Header.Set("Content-Type", "application/json")
		if prefer != "" {
			req.Header.Set("Prefer", prefer) // the mock answers this status
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		res.Body.Close()
		fmt.Printf("%d violations=%q\n", res.StatusCode, res.Header.Get(proxy.HeaderViolations))
	}
	call("")
	call("code=429")

	for _, e := range p.Exchanges(0) {
		for _, v := range e.Violations {
			fmt.Printf("exchange %d, %s: %s (%s): %s\n", e.ID, e.Operation, v.Rule, v.Party, v.Detail)
		}
	}
	// Output:
	// 404 violations=""
	// 429 violations="HDR-2"
	// exchange 2, domainCartRemove: HDR-2 (deployment): Retry-After is missing
}

// dropRetryAfter removes Retry-After from an answer before its header is written.
type dropRetryAfter struct{ http.ResponseWriter }

func (d dropRetryAfter) WriteHeader(status int) {
	d.Header().Del("Retry-After")
	d.ResponseWriter.WriteHeader(status)
}
