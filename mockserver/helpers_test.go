package mockserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
	"github.com/opsapi/mocktoolkit/spec"
)

// testNow pins the mock's clock so that seeded dates are the same in every run.
var testNow = time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)

// mock is a running in-process mock server and its manifest.
type mock struct {
	t        *testing.T
	url      string
	manifest fixtures.Manifest
}

// answer is a response, its decoded body and the request that produced it (for messages).
type answer struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
	req    string
}

func newMock(t *testing.T, cfg mockserver.Config) *mock {
	t.Helper()
	if cfg.Now.IsZero() {
		cfg.Now = testNow
	}
	h, err := mockserver.New(cfg)
	if err != nil {
		t.Fatalf("mockserver.New: %v", err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	m := &mock{t: t, url: srv.URL}
	res, err := http.Get(srv.URL + "/__mock/fixtures")
	if err != nil {
		t.Fatalf("get manifest: %v", err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(&m.manifest); err != nil {
		t.Fatalf("decode manifest: %v", err)
	}
	return m
}

// post sends body (a Go value, or a string sent as is) to path with token and checks the
// answer against the spec. Operations outside the spec (unknown paths) are not checked.
func (m *mock) post(path, token string, body any) answer {
	m.t.Helper()
	return m.do(http.MethodPost, path, token, body)
}

func (m *mock) do(method, path, token string, body any) answer {
	m.t.Helper()
	headers := []string{"Accept", "application/json"}
	if token != "" {
		headers = append(headers, "Authorization", "Bearer "+token)
	}
	a := m.ctl(method, path, body, headers...)
	if ct := a.header.Get("Content-Type"); ct != "application/json" {
		m.t.Fatalf("%s: Content-Type %q, want application/json\n%s", a.req, ct, a.raw)
	}
	return a
}

// checkAgainstSpec validates the answer with kin-openapi (status, headers and body schema).
func (m *mock) checkAgainstSpec(req *http.Request, path string, a answer) {
	m.t.Helper()
	doc, err := spec.Load(context.Background())
	if err != nil {
		m.t.Fatalf("load spec: %v", err)
	}
	route, ok := spec.Route(doc, path)
	if !ok {
		return
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, Route: route},
		Status:                 a.status,
		Header:                 a.header,
		Body:                   io.NopCloser(bytes.NewReader(a.raw)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		m.t.Errorf("%s: answer %d does not match the spec: %v\n%s", a.req, a.status, err, a.raw)
	}
}

func truncate(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// login authenticates with creds and returns the bearer token.
func (m *mock) login(creds fixtures.Credentials) string {
	m.t.Helper()
	a := m.post("/v1/authenticate", "", map[string]any{"email": creds.Email, "password": creds.Password})
	if a.status != http.StatusOK {
		m.t.Fatalf("login %s: %d %s", creds.Email, a.status, a.raw)
	}
	return a.data()["token"].(string)
}

func (a answer) data() map[string]any {
	d, _ := a.body["data"].(map[string]any)
	return d
}

// wantStatus fails unless the answer has status.
func (a answer) wantStatus(t *testing.T, status int) answer {
	t.Helper()
	if a.status != status {
		t.Fatalf("%s: status %d, want %d\n%s", a.req, a.status, status, a.raw)
	}
	return a
}

// wantShape checks the error envelope: "a" (error, message, data []), "b" (error, message) or
// "c" (message, errors).
func (a answer) wantShape(t *testing.T, shape string) {
	t.Helper()
	has := func(k string) bool { _, ok := a.body[k]; return ok }
	switch shape {
	case "a":
		d, ok := a.body["data"].([]any)
		if a.body["error"] != true || !has("message") || !ok || len(d) != 0 {
			t.Errorf("%s: want shape (a), got %s", a.req, a.raw)
		}
	case "b":
		if a.body["error"] != true || !has("message") || has("data") {
			t.Errorf("%s: want shape (b), got %s", a.req, a.raw)
		}
	case "c":
		if _, ok := a.body["errors"].(map[string]any); !ok || !has("message") {
			t.Errorf("%s: want shape (c), got %s", a.req, a.raw)
		}
	}
}

// wantFieldError checks a 422 with errors keyed by field.
func (a answer) wantFieldError(t *testing.T, field string) {
	t.Helper()
	a.wantStatus(t, http.StatusUnprocessableEntity)
	a.wantShape(t, "c")
	errs, _ := a.body["errors"].(map[string]any)
	if msgs, ok := errs[field].([]any); !ok || len(msgs) == 0 {
		t.Errorf("%s: errors has no entry for %q: %s", a.req, field, a.raw)
	}
}

func repeat(n int) string { return strings.Repeat("x", n) }
