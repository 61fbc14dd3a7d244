package mockserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opsapi/mocktoolkit/mockserver"
	"github.com/opsapi/mocktoolkit/spec"
)

// controlCalls are the mock's own endpoints under /__mock/ (routes.go, controls()).
var controlCalls = []struct{ method, path, body string }{
	{"GET", "/__mock/fixtures", ""},
	{"GET", "/__mock/", ""},
	{"POST", "/__mock/reset", "{}"},
	{"GET", "/__mock/clock", ""},
	{"POST", "/__mock/clock", `{"advance_seconds": 1}`},
	{"GET", "/__mock/faults", ""},
	{"POST", "/__mock/faults", `{"operation": "tagsList", "status": 500, "times": 1}`},
	{"DELETE", "/__mock/faults", ""},
	{"GET", "/__mock/requests", ""},
	{"DELETE", "/__mock/requests", ""},
	{"GET", "/__mock/state", ""},
	{"PUT", "/__mock/state", "{}"},
}

// With --admin-token, every /__mock/ endpoint needs X-Mock-Admin-Token (401 shape (b) without
// it); /healthz, the spec and the operations stay open (D66).
func TestAdminTokenGuardsEveryControl(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodGet, "/__mock/fixtures", nil).wantStatus(t, 200) // no token configured: open
	m = newMockWithAdmin(t, "s3cret")
	for _, c := range controlCalls {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			for _, token := range []string{"", "wrong"} {
				a := m.ctl(c.method, c.path, c.body, "X-Mock-Admin-Token", token)
				a.wantStatus(t, http.StatusUnauthorized)
				if c.path != "/__mock/" {
					a.wantShape(t, "b")
				}
			}
			if c.path == "/__mock/state" && c.method == "PUT" {
				return // {} is no world: a 422, which proves the token was accepted
			}
			if a := m.ctl(c.method, c.path, c.body, "X-Mock-Admin-Token", "s3cret"); a.status >= 400 {
				t.Errorf("with the token: %d %s", a.status, a.raw)
			}
		})
	}
	for _, path := range []string{"/healthz", "/openapi.json", "/openapi.yaml"} {
		m.ctl(http.MethodGet, path, nil).wantStatus(t, 200)
	}
	m.post(pAuthenticate, "", map[string]any{"email": "a@b.co", "password": "x"}).wantStatus(t, 401)
	// The refusal says which mistake it is; two tokens are refused, whichever comes first.
	for _, c := range []struct {
		tokens []string
		want   string
	}{
		{nil, "needs its admin token"},
		{[]string{"wrong"}, "does not hold this mock's admin token"},
		{[]string{"s3cret", "wrong"}, "more than once"},
		{[]string{"wrong", "s3cret"}, "more than once"},
	} {
		req, _ := http.NewRequest(http.MethodGet, m.url+"/__mock/clock", nil)
		for _, tok := range c.tokens {
			req.Header.Add("X-Mock-Admin-Token", tok)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized || !strings.Contains(string(raw), c.want) {
			t.Errorf("admin tokens %q: %d %s, want 401 saying %q", c.tokens, res.StatusCode, raw, c.want)
		}
	}
}

// The dashboard takes the admin token as ?token= (HEAD as GET); without it, it answers a
// prompt for it.
func TestAdminTokenOnTheDashboard(t *testing.T) {
	m := newMockWithAdmin(t, "s3cret")
	a := m.ctl(http.MethodGet, "/__mock/", nil).wantStatus(t, http.StatusUnauthorized)
	if !strings.Contains(string(a.raw), `name="token"`) {
		t.Errorf("no token prompt: %s", a.raw)
	}
	m.ctl(http.MethodGet, "/__mock/?token=s3cret", nil).wantStatus(t, 200)
	m.ctl(http.MethodHead, "/__mock/?token=s3cret", nil).wantStatus(t, 200)
	m.ctl(http.MethodHead, "/__mock/", nil).wantStatus(t, http.StatusUnauthorized)
	m.ctl(http.MethodGet, "/__mock/clock?token=s3cret", nil).wantStatus(t, http.StatusUnauthorized)
	// Given twice, which was meant is a guess: neither is taken, and the answer says why.
	for _, q := range []string{"?token=s3cret&token=wrong", "?token=wrong&token=s3cret"} {
		a := m.ctl(http.MethodGet, "/__mock/"+q, nil).wantStatus(t, http.StatusUnauthorized)
		if !strings.Contains(string(a.raw), "more than once") {
			t.Errorf("%s: %s, want the token named as given more than once", q, a.raw)
		}
	}
}

// newMockWithAdmin is newMock for a mock with an admin token.
func newMockWithAdmin(t *testing.T, token string) *mock {
	t.Helper()
	h, err := mockserver.New(mockserver.Config{Now: testNow, AdminToken: token})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	m := &mock{t: t, url: srv.URL}
	fx := m.ctl(http.MethodGet, "/__mock/fixtures", nil, mockserver.AdminTokenHeader, token).wantStatus(t, 200)
	if err := json.Unmarshal(fx.raw, &m.manifest); err != nil {
		t.Fatalf("decode manifest: %v", err)
	}
	return m
}

// A control path with another method answers 405 with Allow, in shape (a).
func TestControlsAnswerMethodNotAllowed(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	a := m.ctl(http.MethodPatch, "/__mock/clock", nil).wantStatus(t, http.StatusMethodNotAllowed)
	a.wantShape(t, "a")
	if a.header.Get("Allow") != "DELETE, GET, POST" {
		t.Errorf("Allow %q, want DELETE, GET, POST", a.header.Get("Allow"))
	}
	// Methods are case-sensitive: "post" is not POST, and the answer says which was meant.
	a = m.ctl("post", "/services/operations/v1/operations/cards/list", nil).wantStatus(t, http.StatusMethodNotAllowed)
	if msg := string(a.raw); !strings.Contains(msg, `\"post\"`) || !strings.Contains(msg, "case-sensitive: send POST") {
		t.Errorf("a lower-case post: %s, want the method quoted and POST named", msg)
	}
}

// The spec is served as YAML, byte for byte, and as JSON that loads into the same operations.
func TestSpecIsServed(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	res, err := http.Get(m.url + "/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	yaml, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(yaml) != string(spec.Bytes()) {
		t.Error("/openapi.yaml is not the embedded document")
	}
	a := m.ctl(http.MethodGet, "/openapi.json", nil).wantStatus(t, 200)
	doc, err := openapi3.NewLoader().LoadFromData(a.raw)
	if err != nil {
		t.Fatalf("/openapi.json does not load: %v", err)
	}
	if got := len(spec.OperationIDs(doc)); got != 24 {
		t.Errorf("/openapi.json has %d operations, want 24", got)
	}
}

// With an admin token, a client without it learns nothing of the worlds: a read of a world's
// journal, flow, faults or snapshot answers 401 whether the world exists or not, under the
// prefix and under X-Mock-World alike (a 404 for a world not there told which ones were).
func TestAdminTokenBeforeWorldExistence(t *testing.T) {
	const token = "s3cr3t-Admin-Tok"
	m := newMockWithAdmin(t, token)
	m.ctl(http.MethodPost, "/__worlds/team-a/__mock/reset", nil, mockserver.AdminTokenHeader, token).wantStatus(t, http.StatusOK)
	for _, world := range []string{"team-a", "nosuch"} {
		for _, path := range []string{"/__mock/state", "/__mock/requests", "/__mock/flow", "/__mock/faults"} {
			m.ctl(http.MethodGet, "/__worlds/"+world+path, nil).wantStatus(t, http.StatusUnauthorized)
			m.ctl(http.MethodGet, path, nil, "X-Mock-World", world).wantStatus(t, http.StatusUnauthorized)
		}
		m.ctl(http.MethodDelete, "/__worlds/"+world+"/__mock/requests", nil).wantStatus(t, http.StatusUnauthorized)
	}
	m.ctl(http.MethodGet, "/__worlds/nosuch/__mock/state", nil, mockserver.AdminTokenHeader, token).wantStatus(t, http.StatusNotFound)
}
