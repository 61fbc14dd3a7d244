package proxy_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/opsapi/mocktoolkit/proxy"
	"github.com/opsapi/mocktoolkit/spec"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// received keeps the last request an upstream handler got.
type received struct {
	mu     sync.Mutex
	host   string
	header http.Header
	body   []byte
}

func (rc *received) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.host, rc.header, rc.body = r.Host, r.Header.Clone(), body
		rc.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// Every operation's valid call (the spec's request example, in the world the examples come
// from) passes through with no violation, and the client gets the upstream's status, headers
// and body byte for byte; the upstream gets the client's body and headers, with its own Host.
func TestValidCallsPassThroughUnchanged(t *testing.T) {
	doc, err := spec.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range spec.Operations(doc) {
		t.Run(op.ID, func(t *testing.T) {
			rc := &received{}
			s := startProxy(t, rc.wrap(newMock(t)))
			token := ""
			switch {
			case op.Access == spec.Superadmin:
				token = s.login(t, manifest().Users.Superadmin)
			case !op.Public():
				token = s.login(t, manifest().Users.Member)
			}
			body, err := json.Marshal(doc.Paths.Value(op.Path).Post.RequestBody.Value.Content.Get("application/json").Example)
			if err != nil {
				t.Fatal(err)
			}
			req, _ := http.NewRequest(http.MethodPost, s.url+op.Path, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json")
			req.Header.Set("X-Forwarded-For", "203.0.113.7")
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			got := s.do(t, req)
			want := s.seen.lastAnswer()

			if got.status >= 300 {
				t.Fatalf("the valid call answered %d: %s", got.status, got.body)
			}
			if v := violations(got); v != nil {
				t.Fatalf("a valid call of the mock reports violations %v; journal: %+v", v, s.proxy.Exchanges(1)[0].Violations)
			}
			if got.status != want.status || !bytes.Equal(got.body, want.body) {
				t.Errorf("proxied answer %d %q differs from the upstream's %d %q", got.status, got.body, want.status, want.body)
			}
			if !reflect.DeepEqual(got.header, want.header) {
				t.Errorf("proxied headers %v differ from the upstream's %v", got.header, want.header)
			}

			rc.mu.Lock()
			defer rc.mu.Unlock()
			if rc.host != strings.TrimPrefix(s.upstream.URL, "http://") {
				t.Errorf("the upstream got Host %q, want its own", rc.host)
			}
			if !bytes.Equal(rc.body, body) {
				t.Errorf("the upstream got body %q, want %q", rc.body, body)
			}
			for _, name := range []string{"Content-Type", "Accept", "Authorization", "X-Forwarded-For"} {
				if rc.header.Get(name) != req.Header.Get(name) {
					t.Errorf("the upstream got %s %q, want %q", name, rc.header.Get(name), req.Header.Get(name))
				}
			}
			if e := s.proxy.Exchanges(1)[0]; e.Operation != op.ID || len(e.Violations) != 0 {
				t.Errorf("journal entry %+v, want operation %s with no violation", e, op.ID)
			}
		})
	}
}

// A path that is not one of the 24 operations is forwarded too, unchecked.
func TestUnknownPathsAreForwardedUnchecked(t *testing.T) {
	s := startProxy(t, newMock(t))
	got := s.post(t, "/services/nowhere/v1/things/list", "", "{}")
	want := s.seen.lastAnswer()
	if got.status != want.status || !bytes.Equal(got.body, want.body) || violations(got) != nil {
		t.Fatalf("got %d %q %v, want the upstream's %d %q and no violation", got.status, got.body, violations(got), want.status, want.body)
	}
	e := s.proxy.Exchanges(1)[0]
	if e.Operation != "" || len(e.Violations) != 0 || len(e.Notes) == 0 {
		t.Errorf("journal entry %+v, want no operation, no violation and a note", e)
	}
}

// A body larger than the bound passes through whole; its fields are not checked, and the
// journal says so.
func TestLargeAnswersStreamThroughUnchecked(t *testing.T) {
	big := bytes.Repeat([]byte("x"), proxy.DefaultMaxAnswer+10)
	s := startProxy(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Limit", "10")
		w.Header().Set("X-RateLimit-Remaining", "9")
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = w.Write(big)
	}))
	got := s.post(t, "/services/operations/v1/operations/cards/list", "", `{"pad":"`+strings.Repeat("y", proxy.DefaultMaxBody)+`"}`)
	if !bytes.Equal(got.body, big) {
		t.Fatalf("the large answer came through as %d bytes, want %d", len(got.body), len(big))
	}
	if v := violations(got); v != nil {
		t.Errorf("violations %v on an answer whose body was not checked, want none", v)
	}
	if e := s.proxy.Exchanges(1)[0]; len(e.Notes) != 2 {
		t.Errorf("notes %q, want one for the request body and one for the answer body", e.Notes)
	}
}

// gzipped compresses every answer of next.
func gzipped(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		_, _ = zw.Write(rec.Body.Bytes())
		_ = zw.Close()
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
		w.WriteHeader(rec.Code)
		_, _ = w.Write(buf.Bytes())
	})
}

// A gzip answer passes through compressed, byte for byte, and is checked decoded.
func TestGzipAnswersAreCheckedDecoded(t *testing.T) {
	broken := breakAnswer(newMock(t), pTagsList, func(_ *int, _ http.Header, body map[string]any) { body["message"] = 7 })
	s := startProxy(t, gzipped(broken))
	token := s.login(t, manifest().Users.Member)
	for path, want := range map[string][]string{pCardsList: nil, pTagsList: {string(rules.ENV1)}} {
		req, _ := http.NewRequest(http.MethodPost, s.url+path, strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept-Encoding", "gzip")
		req.Header.Set("Authorization", "Bearer "+token)
		got := s.do(t, req)
		if upstream := s.seen.lastAnswer(); !bytes.Equal(got.body, upstream.body) || got.header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: the gzip answer was changed on its way", path)
		}
		if ids := violations(got); !sameSet(ids, want) {
			t.Errorf("%s: violations %v, want %v", path, ids, want)
		}
	}
}
