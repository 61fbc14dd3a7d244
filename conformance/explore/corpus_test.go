package explore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/mockserver"
	"github.com/opsapi/mocktoolkit/proxy"
)

// exchange is one entry of the corpus: a request of an operation and the answer it got, with
// the rules the answer breaks.
type exchange struct {
	name   string
	op     conformance.Operation
	token  string
	body   string
	status int
	header http.Header
	answer []byte
	want   []rules.ID
}

// TestOneVerdictForSuiteProxyAndExplore runs one corpus of exchanges — recorded from the mock,
// the answers broken variants typically give, and hand-made bad ones — through the suite's
// client, the validating proxy and explore's properties, and checks that all three name the
// same rules: the suite and the proxy the same set, explore (which stops at the first) its
// first.
func TestOneVerdictForSuiteProxyAndExplore(t *testing.T) {
	t.Parallel() // each serves its own mock
	corpus := recordCorpus(t)
	corpus = append(corpus, brokenCorpus(t, corpus)...)
	replay := &replayer{}
	up := httptest.NewServer(replay)
	t.Cleanup(up.Close)
	u, _ := url.Parse(up.URL)
	p, err := proxy.New(proxy.Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	t.Cleanup(front.Close)
	ctx := context.Background()
	c, err := conformance.NewClient(ctx, front.URL, conformance.Config{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range corpus {
		t.Run(e.name, func(t *testing.T) {
			replay.set(e)
			// Each entry is its own caller, so the proxy's tracker of rules spanning a caller's
			// exchanges (the replayer answers whatever the token) stays out of the verdict.
			tok := e.token
			if tok != "" {
				tok += fmt.Sprintf("-%d", i)
			}
			ex, err := c.Send(ctx, conformance.Request{Op: e.op, Token: tok, RawBody: []byte(e.body), Intent: conformance.Raw, NoRetry: true})
			if err != nil {
				t.Fatal(err)
			}
			var suite []rules.ID
			for _, v := range ex.Violations {
				if !slices.Contains(suite, v.Rule) {
					suite = append(suite, v.Rule)
				}
			}
			var byProxy []rules.ID
			for _, id := range strings.Split(ex.Header.Get(proxy.HeaderViolations), ",") {
				if r, ok := rules.ByID(rules.ID(id)); ok && !r.Client {
					byProxy = append(byProxy, r.ID)
				}
			}
			var byExplore []rules.ID
			if v := checkAnswer(request{op: e.op}, ex); v != nil {
				byExplore = []rules.ID{v.Rule}
			}
			if !slices.Equal(suite, e.want) {
				t.Errorf("the suite names %v, want %v: %v", suite, e.want, ex.Violations)
			}
			if !slices.Equal(byProxy, suite) {
				t.Errorf("the proxy names %v, the suite %v", byProxy, suite)
			}
			if len(suite) > 0 && !slices.Equal(byExplore, suite[:1]) || len(suite) == 0 && byExplore != nil {
				t.Errorf("explore names %v, the suite %v", byExplore, suite)
			}
		})
	}
}

// replayer answers every request with the answer of the current corpus entry.
type replayer struct {
	mu sync.Mutex
	e  exchange
}

func (r *replayer) set(e exchange) { r.mu.Lock(); r.e = e; r.mu.Unlock() }

func (r *replayer) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	r.mu.Lock()
	e := r.e
	r.mu.Unlock()
	for k, v := range e.header {
		w.Header()[k] = v
	}
	w.Header().Del("Content-Length") // the broken answers are re-encoded
	w.WriteHeader(e.status)
	_, _ = w.Write(e.answer)
}

// recordCorpus asks a fresh mock, per operation, its request example as the right caller,
// without a token, and with the first required field of the wrong type; the mock keeps the
// contract, so no entry breaks a rule.
func recordCorpus(t *testing.T) []exchange {
	t.Helper()
	mock, err := mockserver.New(mockserver.Config{RateLimit: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(mock)
	t.Cleanup(srv.Close)
	m, err := conformance.Config{Timeout: 10 * time.Second}.LoadManifest(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	tokens := map[conformance.Access]string{}
	for access, who := range map[conformance.Access]string{conformance.Bearer: m.Manifest.Users.Member.Email, conformance.Superadmin: m.Manifest.Users.Superadmin.Email} {
		pw := m.Manifest.Users.Member.Password
		if access == conformance.Superadmin {
			pw = m.Manifest.Users.Superadmin.Password
		}
		e := ask(t, mock, exchange{op: conformance.OpAuthenticate, body: mustJSON(t, map[string]any{"email": who, "password": pw})})
		var login struct{ Data struct{ Token string } }
		if json.Unmarshal(e.answer, &login) != nil || login.Data.Token == "" {
			t.Fatalf("login of %s: %d %s", who, e.status, e.answer)
		}
		tokens[access] = login.Data.Token
	}
	var out []exchange
	for _, op := range conformance.Operations {
		example := op.Request.Example
		if mt := op.Route.Operation.RequestBody.Value.Content.Get("application/json"); mt != nil && mt.Example != nil {
			example = mt.Example
		}
		valid := mustJSON(t, example)
		out = append(out, ask(t, mock, exchange{name: op.ID + " example", op: op, token: tokens[op.Access], body: valid}))
		if op.Access != conformance.Public {
			out = append(out, ask(t, mock, exchange{name: op.ID + " without a token", op: op, body: valid}))
		}
		if len(op.Required) > 0 {
			bad := mustJSON(t, map[string]any{op.Required[0]: []int{7}})
			out = append(out, ask(t, mock, exchange{name: op.ID + " with a wrong type", op: op, token: tokens[op.Access], body: bad}))
		}
	}
	return out
}

// ask sends e's request to h and keeps the answer in e.
func ask(t *testing.T, h http.Handler, e exchange) exchange {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, e.op.Path, bytes.NewReader([]byte(e.body)))
	req.Header.Set("Content-Type", "application/json")
	if e.token != "" {
		req.Header.Set("Authorization", "Bearer "+e.token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	e.status, e.header, e.answer = rec.Code, rec.Header().Clone(), rec.Body.Bytes()
	return e
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
