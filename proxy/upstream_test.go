package proxy_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/proxy"
)

// An upstream URL is a scheme, a host and a base path: credentials in it would be shown on the
// dashboard and in every 502 (and never sent), a query key likewise, and '..' segments would
// lead every forwarded path out of the base path, as a client's are refused for; each is refused
// at start, and the message masks what it quotes.
func TestUpstreamHoldsNoSecrets(t *testing.T) {
	for raw, want := range map[string]string{
		"http://u:TopSecret@127.0.0.1:1/base":       "user name or password",
		"http://127.0.0.1:1/base?api_key=TopSecret": "holds a query",
		"http://127.0.0.1:1/base?":                  "holds a query",
		"http://127.0.0.1:1/base#TopSecret":         "fragment",
		"ftp://127.0.0.1:1/":                        "want an http or https URL",
		"http://127.0.0.1:1/echo/a/../../b":         "'.' or '..' segments",
		"http://127.0.0.1:1/api/%2e%2e/x":           "'.' or '..' segments",
	} {
		_, err := proxy.ParseUpstream(raw)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", raw, err, want)
		} else if strings.Contains(err.Error(), "TopSecret") {
			t.Errorf("%s: the error quotes the secret: %v", raw, err)
		}
		if u, perr := url.Parse(raw); perr == nil {
			if _, err := proxy.New(proxy.Config{Upstream: u}); err == nil {
				t.Errorf("New accepts the upstream %s", raw)
			}
		}
	}
	if _, err := proxy.ParseUpstream("https://staging.example.com/api/"); err != nil {
		t.Errorf("a plain upstream with a base path: %v", err)
	}
}
