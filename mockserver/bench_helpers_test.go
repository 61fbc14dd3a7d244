package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/reference"
)

// opsV1 is the path prefix of the operations area (the interface's path convention).
const opsV1 = "/services/operations/v1/operations/"

// Helpers of the benchmarks (*_bench_test.go). They sit inside the package so that a benchmark
// can load a world larger than the seeded one (10k cards, thousands of carts) without sending
// thousands of requests first.

// benchNow pins the clock of every benchmark world.
var benchNow = time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)

// benchLimit lifts the rate limit so that a benchmark measures work, not 429s.
const benchLimit = 1 << 30

// benchMock is a mock whose world a benchmark may replace, and the member's bearer token.
type benchMock struct {
	s        *Server
	h        http.Handler
	manifest fixtures.Manifest
	token    string
	memberID int64
}

// newBenchMock builds a mock on the default seed, then replaces its world by the seeded state
// changed by grow (nil: unchanged), and logs the member in.
func newBenchMock(tb testing.TB, grow func(*reference.State, fixtures.Manifest)) *benchMock {
	tb.Helper()
	s, err := New(Config{Now: benchNow, RateLimit: benchLimit})
	if err != nil {
		tb.Fatalf("new server: %v", err)
	}
	m := &benchMock{s: s, h: s}
	m.load(tb, grow)
	return m
}

// load replaces the world by a fresh seeded one changed by grow and logs the member in.
func (m *benchMock) load(tb testing.TB, grow func(*reference.State, fixtures.Manifest)) {
	tb.Helper()
	def := m.s.worlds.def
	w := fixtures.Build(fixtures.DefaultSeed, def.clock.Now())
	if grow != nil {
		grow(&w.State, w.Manifest)
	}
	st, err := reference.New(w.State, reference.WithClock(def.clock))
	if err != nil {
		tb.Fatalf("load world: %v", err)
	}
	def.cur.Store(&worldState{store: st, manifest: w.Manifest, source: Source{Seed: fixtures.DefaultSeed, Scenario: fixtures.DefaultScenario}})
	m.manifest = w.Manifest
	creds := w.Manifest.Users.Member
	res, err := st.Authenticate(reference.AuthenticateInput{Email: creds.Email, Password: creds.Password})
	if err != nil {
		tb.Fatalf("log in: %v", err)
	}
	m.token, m.memberID = res.Token, res.ID
}

// request is a POST of body to path with the member's token when authed.
func (m *benchMock) request(path string, body []byte, authed bool) *http.Request {
	r := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json")
	if authed {
		r.Header.Set("Authorization", "Bearer "+m.token)
	}
	return r
}

// serve runs one request through the whole handler and fails unless it answers want.
func (m *benchMock) serve(tb testing.TB, r *http.Request, want int) {
	rec := httptest.NewRecorder()
	m.h.ServeHTTP(rec, r)
	if rec.Code != want {
		tb.Fatalf("%s: status %d, want %d: %s", r.URL.Path, rec.Code, want, rec.Body.Bytes())
	}
}

// loop benchmarks path with body through the whole handler: one checked request (it must
// answer 200), then b.N timed ones.
func (m *benchMock) loop(b *testing.B, path string, body []byte, authed bool) {
	m.serve(b, m.request(path, body, authed), http.StatusOK)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		m.h.ServeHTTP(newDiscard(), m.request(path, body, authed))
	}
}

// answer is the body the mock answers to r, which must be a success.
func (m *benchMock) answer(tb testing.TB, r *http.Request) []byte {
	rec := httptest.NewRecorder()
	m.h.ServeHTTP(rec, r)
	if rec.Code != http.StatusOK {
		tb.Fatalf("%s: status %d: %s", r.URL.Path, rec.Code, rec.Body.Bytes())
	}
	return rec.Body.Bytes()
}

// mustJSON encodes v or fails.
func mustJSON(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatalf("encode: %v", err)
	}
	return b
}

// addCards appends n live cards of the member's project to st (ids after the largest in use).
func addCards(st *reference.State, mf fixtures.Manifest, n int) {
	project := memberProject(st, mf)
	next := int64(1)
	for _, c := range st.Cards {
		next = max(next, c.ID+1)
	}
	at := benchNow.Add(-time.Hour)
	for i := range n {
		id := next + int64(i)
		st.Cards = append(st.Cards, reference.Card{
			ID: id, ProjectID: &project, PlatformID: reference.PlatformID, IsActive: true,
			CardType: "widget", Title: fmt.Sprintf("Bench card %d", id), Status: "open",
			Priority: "normal", SortOrder: id, Position: id, CreatedAt: at, UpdatedAt: at,
		})
	}
}

// addComments appends n comments on the manifest's card to st.
func addComments(st *reference.State, mf fixtures.Manifest, n int) {
	project := memberProject(st, mf)
	next := int64(1)
	for _, c := range st.Comments {
		next = max(next, c.ID+1)
	}
	user := memberID(st, mf)
	at := benchNow.Add(-time.Hour)
	for i := range n {
		st.Comments = append(st.Comments, reference.Comment{
			ID: next + int64(i), ProjectID: project, CardID: mf.Operations.CardID, UserID: user,
			Comment: "A bench comment.", CreatedAt: at, UpdatedAt: at,
		})
	}
}

// addCarts appends n open carts of two items each; cart i has token benchCartToken(i), and
// benchCartItem(i) is the item a benchmark removes.
func addCarts(st *reference.State, n int) {
	for i := range n {
		item := reference.CartItem{ID: benchCartItem(i), DomainName: "bench.example", TLD: "example",
			Action: "register", Years: 1, Price: 9.99, Currency: "USD"}
		st.Carts = append(st.Carts, reference.Cart{SessionToken: benchCartToken(i), Status: reference.CartOpen,
			Currency: "USD", TotalPrice: 19.98, ItemCount: 2, Items: []reference.CartItem{item, item2(item)}})
	}
}

func item2(it reference.CartItem) reference.CartItem {
	it.ID += 1 << 40
	return it
}

func benchCartToken(i int) string { return fmt.Sprintf("bench-cart-%08d", i) }
func benchCartItem(i int) int64   { return 1<<41 + int64(i) }

func memberID(st *reference.State, mf fixtures.Manifest) int64 {
	for _, u := range st.Users {
		if u.Email == mf.Users.Member.Email {
			return u.ID
		}
	}
	return 0
}

func memberProject(st *reference.State, mf fixtures.Manifest) int64 {
	for _, u := range st.Users {
		if u.Email == mf.Users.Member.Email {
			return u.ProjectID
		}
	}
	return 0
}
