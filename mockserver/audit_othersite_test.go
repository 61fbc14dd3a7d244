package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A browser marks a request with Sec-Fetch-Site only when the mock's address is potentially
// trustworthy (https, localhost); a mock reached at a LAN address, host.docker.internal or a
// compose service name gets a page's fetch with its Origin alone. Such a page is still a page
// of another site: it never pushes out a test worker's world, and a preflight makes no world at
// all (the browser sends it, not the page's code).
func TestPageOfAnotherSiteWithoutFetchMetadataNeverEvicts(t *testing.T) {
	for _, c := range []struct {
		name    string
		headers []string
	}{
		{"an Origin of another site, no Sec-Fetch-Site", []string{"Origin", "https://evil.example"}},
		{"an opaque Origin (null)", []string{"Origin", "null"}},
		{"marked cross-site by the browser", crossSite},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := newMock(t, mockserver.Config{MaxWorlds: 3})
			before := fillWorlds(t, m, 3)
			for _, w := range []string{"evil1", "evil2", "evil3"} {
				pre := append([]string{"Access-Control-Request-Method", "POST"}, c.headers...)
				a := m.ctl(http.MethodOptions, "/__worlds/"+w+"/services/operations/v1/operations/tags/list", nil, pre...)
				if a.status != http.StatusNoContent || a.header.Get("X-RateLimit-Remaining") == "" {
					t.Errorf("preflight for a new world: %d %v %s, want 204 with the rate-limit headers", a.status, a.header, a.raw)
				}
				post := append([]string{"Content-Type", "application/json"}, c.headers...)
				if a := m.ctl(http.MethodPost, "/__worlds/"+w+pAuthenticate, "{}", post...); a.status != http.StatusServiceUnavailable && a.status != http.StatusForbidden {
					t.Errorf("a call for a new world with the registry full: %d %s, want 503 (or 403 where the origin is refused)", a.status, a.raw)
				}
			}
			wantWorlds(t, m, before, "after a page of another site named new worlds")
			if names := m.worldNames(t); strings.Contains(names, "evil") {
				t.Errorf("worlds %s: a preflight or a refused call made a world", names)
			}
		})
	}
}

// The same page, at an address of the mock's own site, is the app under test: its preflight
// answers and its call makes the world, pushing out the idle one it needs room from.
func TestPageOfTheSameSiteMakesWorlds(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxWorlds: 3})
	fillWorlds(t, m, 3)
	host := strings.TrimPrefix(m.url, "http://")
	hostname := host[:strings.LastIndex(host, ":")]
	a := m.ctl(http.MethodPost, "/__worlds/app"+pAuthenticate, "{}", "Content-Type", "application/json", "Origin", "http://"+hostname+":5173")
	if a.status == http.StatusServiceUnavailable || a.status == http.StatusForbidden {
		t.Fatalf("a page of the mock's own host on another port: %d %s, want the operation's answer", a.status, a.raw)
	}
	if names := m.worldNames(t); !strings.Contains(names, "app") {
		t.Errorf("worlds %s: the app's call made no world", names)
	}
}

// Worlds a page of another site made while there was room are the first to go when a test
// worker needs room, however recently the page used them: the page cannot keep its worlds and
// push the workers' out.
func TestWorldsAPageMadeGoFirst(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxWorlds: 4})
	before := fillWorlds(t, m, 2)
	for _, w := range []string{"e1", "e2"} {
		m.ctl(http.MethodPost, "/__worlds/"+w+pAuthenticate, "{}", append([]string{"Content-Type", "application/json"}, crossSite...)...)
	}
	m.ctl(http.MethodPost, "/__worlds/e1"+pAuthenticate, "{}", append([]string{"Content-Type", "application/json"}, crossSite...)...) // the page keeps e1 recent
	for _, w := range []string{"w3", "w4"} {
		m.ctl(http.MethodGet, "/__worlds/"+w+"/__mock/clock", nil).wantStatus(t, http.StatusOK)
	}
	wantWorlds(t, m, append(before, "w3", "w4"), "after two workers arrived with the page's two worlds held")
	if names := m.worldNames(t); strings.Contains(names, "e1") || strings.Contains(names, "e2") {
		t.Errorf("worlds %s: the page's worlds stayed while the workers needed room", names)
	}
}

// Only a POST to an operation or a request to the mock's own endpoints makes a world: a health
// probe, the document, the icon (the same in every world) are answered without making one, and
// a bare OPTIONS makes none either, so none of them pushes out a test worker's world.
func TestServerWideAnswersMakeNoWorld(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxWorlds: 2})
	before := fillWorlds(t, m, 2)
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/__worlds/probe1/healthz"}, {http.MethodHead, "/__worlds/probe2/healthz"},
		{http.MethodGet, "/__worlds/probe3/openapi.json"}, {http.MethodGet, "/__worlds/probe4/openapi.yaml"},
		{http.MethodGet, "/__worlds/probe5/favicon.ico"}, {http.MethodOptions, "/__worlds/probe6/services/operations/v1/operations/tags/list"},
	} {
		status, body := send(t, c.method, m.url+c.path, "", "")
		if c.method != http.MethodOptions && (status < 200 || status > 299) {
			t.Errorf("%s %s: %d %s, want its answer", c.method, c.path, status, body)
		}
	}
	wantWorlds(t, m, before, "after health probes and document fetches under new world names")
	if names := m.worldNames(t); strings.Contains(names, "probe") {
		t.Errorf("worlds %s: a server-wide answer or a bare OPTIONS made a world", names)
	}
}

// The app under test on localhost calling the mock at 127.0.0.1 is the mock's own site, though
// the browser marks the fetch cross-site (it counts localhost and 127.0.0.1 two sites): its
// world may push out an idle one as the worker's own would (D141, D213).
func TestLoopbackPageMarkedCrossSiteIsTheMocksOwnSite(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxWorlds: 3})
	fillWorlds(t, m, 3)
	a := m.ctl(http.MethodPost, "/__worlds/app"+pAuthenticate, "{}", "Content-Type", "application/json",
		"Origin", "http://localhost:5173", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "cors")
	if a.status == http.StatusServiceUnavailable || a.status == http.StatusForbidden {
		t.Fatalf("the app on localhost, marked cross-site: %d %s, want the operation's answer", a.status, a.raw)
	}
	if names := m.worldNames(t); !strings.Contains(names, "app") {
		t.Errorf("worlds %s: the app's call made no world", names)
	}
	// A page of another site marked so is still another site's.
	a = m.ctl(http.MethodPost, "/__worlds/evil"+pAuthenticate, "{}", "Content-Type", "application/json",
		"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "cors")
	if a.status != http.StatusServiceUnavailable {
		t.Errorf("a page of another site naming a new world with the worlds full: %d, want 503", a.status)
	}
}
