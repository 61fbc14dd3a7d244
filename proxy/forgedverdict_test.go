package proxy_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/textproto"
	"net/url"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/proxy"
)

// The proxy owns X-Contract-Violations: an upstream cannot slip its own verdict to the client
// in a 103 Early Hints or in a trailer, any more than in a header.
func TestUpstreamCannotForgeTheVerdictInTrailersOr1xx(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(proxy.HeaderViolations, "FORGED-103")
		w.WriteHeader(http.StatusEarlyHints)
		w.Header().Del(proxy.HeaderViolations)
		w.Header().Set("Trailer", proxy.HeaderViolations)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-RateLimit-Limit", "60")
		w.Header().Set("X-RateLimit-Remaining", "59")
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, `{"error":false,"message":"ok","data":{"tags":[]}}`)
		w.Header().Set(proxy.HeaderViolations, "FORGED-1")
	}))
	defer upstream.Close()
	u, _ := url.Parse(upstream.URL)
	p, err := proxy.New(proxy.Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	defer front.Close()

	var interim []string
	trace := &httptrace.ClientTrace{Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
		interim = append(interim, h.Values(proxy.HeaderViolations)...)
		return nil
	}}
	req, _ := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace), http.MethodPost,
		front.URL+"/services/operations/v1/operations/tags/list", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer t")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if len(interim) > 0 {
		t.Errorf("a 1xx relayed the upstream's %s: %v", proxy.HeaderViolations, interim)
	}
	if v := res.Trailer.Values(proxy.HeaderViolations); len(v) > 0 {
		t.Errorf("the trailer relayed the upstream's %s: %v", proxy.HeaderViolations, v)
	}
	if v := res.Header.Values(proxy.HeaderViolations); len(v) > 0 && strings.Contains(strings.Join(v, ","), "FORGED") {
		t.Errorf("the header carries the upstream's verdict: %v", v)
	}
}

// A page's script reads the verdict of a cross-origin answer only when the answer exposes the
// header: where the upstream answers with CORS, the proxy adds it to the exposed headers and
// keeps the ones the upstream exposes.
func TestVerdictIsExposedToCrossOriginPages(t *testing.T) {
	for _, exposed := range []string{"", "X-Request-Id", "x-contract-violations"} {
		s := startProxy(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Access-Control-Allow-Origin", "http://app.example")
			if exposed != "" {
				w.Header().Set("Access-Control-Expose-Headers", exposed)
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"error":false,"message":"ok","data":{"tags":[]}}`) // no rate-limit headers
		}))
		a := s.post(t, pTagsList, "", `{}`)
		if a.header.Get(proxy.HeaderViolations) == "" {
			t.Fatalf("an answer without rate-limit headers got no verdict")
		}
		got := strings.Join(a.header.Values("Access-Control-Expose-Headers"), ", ")
		if !strings.Contains(strings.ToLower(got), "x-contract-violations") || !strings.Contains(got, exposed) || strings.Count(strings.ToLower(got), "x-contract-violations") != 1 {
			t.Errorf("upstream exposing %q: the answer exposes %q, want the verdict header once beside what the upstream exposes", exposed, got)
		}
	}
}

// A deployment ignores Prefer (it is advisory): its 400 to a request carrying `Prefer:
// code=418` on an operation that lists no 400 is its own answer, and breaks STATUS-1. Only the
// mock's refusal, which it marks (X-Mock-Refused: prefer), is the client's doing.
func TestDeploymentsOwn400ToAPreferenceIsJudged(t *testing.T) {
	for _, mark := range []string{"", "prefer"} {
		s := startProxy(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("X-RateLimit-Limit", "60")
			w.Header().Set("X-RateLimit-Remaining", "59")
			if mark != "" {
				w.Header().Set("X-Mock-Refused", mark)
			}
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"error":true,"message":"Something broke","data":[]}`)
		}))
		req, _ := http.NewRequest(http.MethodPost, s.url+"/services/ai/v1/conversations/restore", strings.NewReader(`{"conversation_id":1}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Prefer", "code=418")
		res := s.do(t, req)
		got := res.header.Get(proxy.HeaderViolations)
		if judged := strings.Contains(got, "STATUS-1"); judged != (mark == "") {
			t.Errorf("X-Mock-Refused %q: %s %q, want STATUS-1 only on the unmarked 400", mark, proxy.HeaderViolations, got)
		}
	}
}
