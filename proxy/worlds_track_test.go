package proxy_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
	"github.com/opsapi/mocktoolkit/proxy"
)

// Each mock world a client names with X-Mock-World has its own carts: removing the same item
// in three worlds through the proxy is three first removals, never a repeat charged to the
// deployment as CART-1 or CART-2.
func TestWorldsNamedByHeaderAreTrackedApart(t *testing.T) {
	s := startProxy(t, newMock(t))
	cart := manifest().Domains.Carts[0]
	body := fmt.Sprintf(`{"session_token":%q,"cart_item_id":%d}`, cart.SessionToken, cart.ItemIDs[0])
	for _, world := range []string{"v1", "v2", "v3"} {
		req, _ := http.NewRequest(http.MethodPost, s.url+"/services/domains/v1/domain-cart/remove", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Mock-World", world)
		a := s.do(t, req)
		if a.status != http.StatusOK || len(violations(a)) > 0 {
			t.Errorf("world %s: %d, violations %v; want 200 and none", world, a.status, violations(a))
		}
	}
	req, _ := http.NewRequest(http.MethodPost, s.url+"/services/domains/v1/domain-cart/remove", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Mock-World", "v1")
	if a := s.do(t, req); a.status != http.StatusNotFound {
		t.Errorf("the item again in world v1: %d, want 404", a.status)
	}
}

// A world whose records the mock replaced without the proxy seeing it (dropped past
// --max-worlds and made again, or reset straight on the mock) starts afresh for the proxy too:
// the mock marks which build of its records answered, and the tracker forgets on a new one.
// Removing an item again in such a world was charged to the mock as CART-1 and CART-2 (D123).
func TestRecordsReplacedBehindTheProxyAreForgotten(t *testing.T) {
	mock, err := mockserver.New(mockserver.Config{MaxWorlds: 2})
	if err != nil {
		t.Fatal(err)
	}
	s := startProxy(t, mock)
	cart := manifest().Domains.Carts[0]
	body := fmt.Sprintf(`{"session_token":%q,"cart_item_id":%d}`, cart.SessionToken, cart.ItemIDs[0])
	remove := func(world string) answer {
		req, _ := http.NewRequest(http.MethodPost, s.url+"/services/domains/v1/domain-cart/remove", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Mock-World", world)
		return s.do(t, req)
	}
	for _, world := range []string{"w1", "w2", "w3", "w1"} { // w3 pushes w1 out; w1 is made again
		if a := remove(world); a.status != http.StatusOK || len(violations(a)) > 0 {
			t.Errorf("world %s: %d, violations %v; want 200 and none", world, a.status, violations(a))
		}
	}
	// A reset sent to the mock itself, not through the proxy.
	rec := httptest.NewRecorder()
	mock.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/__worlds/w1/__mock/reset", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("reset: %d %s", rec.Code, rec.Body)
	}
	if a := remove("w1"); a.status != http.StatusOK || len(violations(a)) > 0 {
		t.Errorf("after a reset straight on the mock: %d, violations %v; want 200 and none", a.status, violations(a))
	}
	if a := remove("w1"); a.status != http.StatusNotFound {
		t.Errorf("the item again: %d, want 404", a.status)
	}
}

// A deployment's own X-Mock-World-Build is not taken: only a mock's world named by
// X-Mock-World is tracked by build, or a deployment changing the header at every answer would
// have the proxy forget the create its list left out (LIST-1).
func TestDeploymentCannotMakeTheProxyForget(t *testing.T) {
	_, call := startTagsDeployment(t, true)
	call("list", `{}`)
	call("create", `{"name":"x"}`)
	if a := call("list", `{}`); !slices.Contains(violations(a), "LIST-1") {
		t.Errorf("a list leaving out the create, the deployment's build header changing: violations %v, want LIST-1", violations(a))
	}
}

// A deployment answering 2xx to every path is not a mock's reset: a client sending POST
// /__mock/reset through the proxy to it erased what the proxy counted, and the list leaving
// out the create passed (D123). Only an answer the mock marks (X-Mock-World-Build) is taken.
func TestCatchAllDeploymentCannotBeResetThroughTheProxy(t *testing.T) {
	s, call := startTagsDeployment(t, false)
	call("list", `{}`)
	call("create", `{"name":"x"}`)
	for _, c := range []struct{ method, path string }{
		{http.MethodPost, "/__mock/reset"}, {http.MethodPut, "/__mock/state"},
		{http.MethodDelete, "/__mock/worlds?name=qa"}, {http.MethodPost, "/__mock/clock"}, {http.MethodDelete, "/__mock/clock"},
	} {
		req, _ := http.NewRequest(c.method, s.url+c.path, strings.NewReader(`{}`))
		if a := s.do(t, req); a.status != http.StatusOK {
			t.Fatalf("%s %s through the proxy: %d, want the deployment's 200", c.method, c.path, a.status)
		}
	}
	if a := call("list", `{}`); !slices.Contains(violations(a), "LIST-1") {
		t.Errorf("a list leaving out the create after 2xx answers to the mock's control paths from a deployment that is not the mock: violations %v, want LIST-1", violations(a))
	}
}

// startTagsDeployment starts a proxy in front of a deployment whose tag lists never show a
// create, answering 200 to every other path; withBuild has it send its own, changing,
// X-Mock-World-Build. call posts to a tags operation as one caller.
func startTagsDeployment(t *testing.T, withBuild bool) (*setup, func(op, body string) answer) {
	var n atomic.Int64
	upstream := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if withBuild {
			w.Header().Set("X-Mock-World-Build", fmt.Sprint(n.Add(1)))
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-RateLimit-Limit", "1000")
		w.Header().Set("X-RateLimit-Remaining", fmt.Sprint(1000-n.Add(1)))
		switch {
		case strings.HasSuffix(r.URL.Path, "/tags/create"):
			_, _ = w.Write([]byte(`{"error":false,"message":"Tag created.","data":{"tag":{"id":9,"name":"x"}}}`))
		case strings.HasSuffix(r.URL.Path, "/tags/list"):
			_, _ = w.Write([]byte(`{"error":false,"message":"Tags.","data":{"tags":[{"id":1,"name":"a"}]}}`))
		default:
			_, _ = w.Write([]byte(`{}`))
		}
	})
	s := startProxyWith(t, upstream, proxy.Config{ListLag: -1})
	return s, func(op, body string) answer {
		req, _ := http.NewRequest(http.MethodPost, s.url+"/services/operations/v1/operations/tags/"+op, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer member-token")
		return s.do(t, req)
	}
}

// An --upstream naming a mock's world (http://mock/__worlds/qa) takes the mock's build as a
// world named by X-Mock-World does: a reset sent to the mock directly was charged CART-1.
func TestUpstreamNamingAWorldFollowsItsBuild(t *testing.T) {
	mock, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(mock)
	t.Cleanup(up.Close)
	u, _ := url.Parse(up.URL + "/__worlds/qa")
	p, err := proxy.New(proxy.Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	t.Cleanup(front.Close)
	cart := manifest().Domains.Carts[0]
	body := fmt.Sprintf(`{"session_token":%q,"cart_item_id":%d}`, cart.SessionToken, cart.ItemIDs[0])
	remove := func() (int, string) {
		res, err := http.Post(front.URL+"/services/domains/v1/domain-cart/remove", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode, res.Header.Get("X-Contract-Violations")
	}
	if st, vs := remove(); st != http.StatusOK || vs != "" {
		t.Fatalf("first removal: %d %q", st, vs)
	}
	rec := httptest.NewRecorder()
	mock.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/__worlds/qa/__mock/reset", nil))
	if st, vs := remove(); st != http.StatusOK || vs != "" {
		t.Errorf("after a reset straight on the mock: %d, violations %q; want 200 and none", st, vs)
	}
}
