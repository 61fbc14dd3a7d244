package explore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/explore"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/internal/fulltest"
)

// findsPlanted runs explore mode, bounded by a number of cases, against the reference mock
// wrapped by a handler that breaks one rule, and wants the run to fail on that rule.
func findsPlanted(t *testing.T, wrap func(http.Handler) http.Handler, cases int, want rules.ID) *explore.Failure {
	t.Helper()
	c, m := serve(t, wrap)
	res, err := explore.Run(context.Background(), c, m, explore.Options{Cases: cases, Seed: 20261123, ShrinkReplays: 20})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure == nil {
		t.Fatalf("explore mode missed the planted %s bug in %d cases", want, res.Cases)
	}
	if res.Failure.Rule != want {
		t.Fatalf("want %s, got:\n%s", want, res.Failure.Report())
	}
	t.Logf("found by case %d:\n%s", res.FoundAt, res.Failure.Report())
	return res.Failure
}

// TestFindsScopeBreak: a tour card update refused for a card of the project still applies
// its status to that card (through cards/update): SCOPE-1's read-back sees the change.
func TestFindsScopeBreak(t *testing.T) {
	t.Parallel() // each serves its own mock
	findsPlanted(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != conformance.OpTourCardsUpdate.Path {
				h.ServeHTTP(w, r)
				return
			}
			raw, _ := io.ReadAll(r.Body)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, cloneTo(r, r.URL.Path, raw))
			if rec.Code >= 400 {
				h.ServeHTTP(httptest.NewRecorder(), cloneTo(r, conformance.OpCardsUpdate.Path, raw))
			}
			copyAnswer(w, rec)
		})
	}, 200, rules.SCOPE1)
}

// TestFindsScopeAccepted: a tour card update naming a card a card list showed answers the
// last success it gave instead of its refusal: SCOPE-1 sees a success.
func TestFindsScopeAccepted(t *testing.T) {
	t.Parallel() // each serves its own mock
	findsPlanted(t, func(h http.Handler) http.Handler {
		var (
			mu      sync.Mutex
			last    []byte
			project = map[float64]bool{} // ids cards/list answered
		)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			raw, _ := io.ReadAll(r.Body)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, cloneTo(r, r.URL.Path, raw))
			var req struct{ ID float64 }
			_ = json.Unmarshal(raw, &req)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case r.URL.Path == conformance.OpCardsList.Path && rec.Code == 200:
				var list struct {
					Data struct{ Cards []struct{ ID float64 } }
				}
				_ = json.Unmarshal(rec.Body.Bytes(), &list)
				for _, c := range list.Data.Cards {
					project[c.ID] = true
				}
			case r.URL.Path == conformance.OpTourCardsUpdate.Path && rec.Code == 200:
				last = rec.Body.Bytes()
			case r.URL.Path == conformance.OpTourCardsUpdate.Path && rec.Code == 404 && project[req.ID] && last != nil:
				faked := httptest.NewRecorder()
				for k, v := range rec.Header() {
					if k != "Content-Length" {
						faked.Header()[k] = v
					}
				}
				faked.WriteHeader(200)
				_, _ = faked.Write(last)
				rec = faked
			}
			copyAnswer(w, rec)
		})
	}, 300, rules.SCOPE1)
}

// TestFindsRateCountBreak: every answer counts X-RateLimit-Remaining down by two (one more
// than it spends): LIMIT-4 sees it in answers in a row.
func TestFindsRateCountBreak(t *testing.T) {
	t.Parallel() // each serves its own mock
	findsPlanted(t, func(h http.Handler) http.Handler {
		var extra atomic.Int64
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if n, err := strconv.ParseInt(rec.Header().Get("X-RateLimit-Remaining"), 10, 64); err == nil {
				rec.Header().Set("X-RateLimit-Remaining", strconv.FormatInt(n-extra.Add(1), 10))
			}
			copyAnswer(w, rec)
		})
	}, 200, rules.LIMIT4)
}

// TestRateCountToleratesWindowEnds: a window that ends between two answers (Remaining back at
// the top once in a while, as a fixed window of a few requests does) breaks no property.
func TestRateCountToleratesWindowEnds(t *testing.T) {
	t.Parallel() // each serves its own mock
	c, m := serve(t, func(h http.Handler) http.Handler {
		var n atomic.Int64
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if rec.Header().Get("X-RateLimit-Remaining") != "" {
				// a window of 4 requests under a limit of 60: 59, 58, 57, 56, 59, ...
				rec.Header().Set("X-RateLimit-Limit", "60")
				rec.Header().Set("X-RateLimit-Remaining", strconv.FormatInt(59-(n.Add(1)-1)%4, 10))
			}
			copyAnswer(w, rec)
		})
	})
	res, err := explore.Run(context.Background(), c, m, explore.Options{Cases: 150, Seed: 20261123})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil {
		t.Fatalf("a window ending between answers broke a property:\n%s", res.Failure.Report())
	}
}

// TestFindsPublicStrayBreak: a public operation sent an Authorization header reads no body
// (so answers a validation error where it answered 404): AUTH-7 sees the answers differ.
func TestFindsPublicStrayBreak(t *testing.T) {
	fulltest.Require(t, "explore until it finds a stray public write")
	t.Parallel() // each serves its own mock
	findsPlanted(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "" && (r.URL.Path == conformance.OpDomainCartRemove.Path || r.URL.Path == conformance.OpAuthenticate.Path) {
				r = cloneTo(r, r.URL.Path, []byte("{}"))
			}
			h.ServeHTTP(w, r)
		})
	}, 200, rules.AUTH7)
}

// cloneTo is r sent to path with body raw.
func cloneTo(r *http.Request, path string, raw []byte) *http.Request {
	c := r.Clone(r.Context())
	c.URL.Path, c.RequestURI = path, ""
	c.Body, c.ContentLength = io.NopCloser(bytes.NewReader(raw)), int64(len(raw))
	return c
}

// copyAnswer writes the recorded answer rec to w.
func copyAnswer(w http.ResponseWriter, rec *httptest.ResponseRecorder) {
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}
