package mockclient_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockclient"
	"github.com/opsapi/mocktoolkit/mockserver"
)

func newClient(t *testing.T, cfg mockserver.Config, opts ...mockclient.Option) *mockclient.Client {
	t.Helper()
	cfg.Now = time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	mock, err := mockserver.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(mock)
	t.Cleanup(srv.Close)
	return mockclient.New(srv.URL, opts...)
}

// Every control answers through the client, in the world it addresses.
func TestClientControls(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, mockserver.Config{AdminToken: "adm"}, mockclient.WithAdminToken("adm")).World("w1")
	if _, err := c.Reset(ctx, mockclient.Reset{Seed: 7, Scenario: "edge"}); err != nil {
		t.Fatal(err)
	}
	tok, err := c.LoginAs(ctx, "superadmin")
	if err != nil || tok == "" {
		t.Fatalf("login: %q %v", tok, err)
	}
	f, err := c.AddFault(ctx, mockclient.Fault{Operation: "cardsList", Status: 503})
	var me *mockclient.Error
	if !errors.As(err, &me) || me.Status != http.StatusUnprocessableEntity || len(me.Errors["status"]) == 0 {
		t.Fatalf("a 503 fault: %v %v", f, err)
	}
	if f, err = c.AddFault(ctx, mockclient.Fault{Operation: "cardsList", Status: 500, Times: 2}); err != nil || f.ID == 0 {
		t.Fatalf("add fault: %+v %v", f, err)
	}
	if list, err := c.Faults(ctx); err != nil || len(list) != 1 {
		t.Fatalf("faults: %v %v", list, err)
	}
	if err := c.ClearFaults(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Freeze(ctx, true); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Advance(ctx, 500*time.Millisecond); err == nil {
		t.Errorf("Advance(500ms) moved nothing and said nothing; want an error (whole seconds)")
	}
	if _, err := c.LoginAs(ctx, "nobody"); err == nil || strings.Contains(err.Error(), "mock answered") {
		t.Errorf("LoginAs(nobody): %v; want an error that no request was made for", err)
	}
	clk, err := c.Advance(ctx, time.Hour)
	if err != nil || !clk.Frozen || clk.Now.Hour() != 10 {
		t.Fatalf("advance: %+v %v", clk, err)
	}
	if clk, err = c.SystemClock(ctx); err != nil || clk.Frozen || time.Since(clk.Now).Abs() > 2*time.Second {
		t.Fatalf("system clock: %+v %v, want the system time, running", clk, err)
	}
	if n, err := c.Count(ctx, mockclient.Filter{Operation: "authenticate"}); err != nil || n != 1 {
		t.Fatalf("count: %d %v", n, err)
	}
	reqs, err := c.Requests(ctx, mockclient.Filter{Status: "2xx", Limit: 5})
	if err != nil || len(reqs) != 1 || reqs[0].World != "w1" {
		t.Fatalf("requests: %+v %v", reqs, err)
	}
	st, err := c.State(ctx)
	if err != nil || len(st.Cards) == 0 {
		t.Fatalf("state: %v", err)
	}
	if err := c.PutState(ctx, st); err != nil {
		t.Fatal(err)
	}
	ws, err := c.Worlds(ctx)
	if err != nil || len(ws) != 2 || ws[1].Name != "w1" || ws[1].Scenario != "edge" || !ws[1].Snapshot {
		t.Fatalf("worlds: %+v %v", ws, err)
	}
	if err := c.ClearRequests(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteWorld(ctx, "w1"); err != nil {
		t.Fatal(err)
	}
	var gone *mockclient.Error
	if err := c.DeleteWorld(ctx, "w1"); !errors.As(err, &gone) || gone.Status != http.StatusNotFound {
		t.Errorf("deleting a deleted world: %v", err)
	}
	if _, err := mockclient.New(c.BaseURL()).Manifest(ctx); err == nil {
		t.Error("no admin token, and still an answer")
	}
}

// An empty world name is refused, not taken for the default world every worker shares.
func TestEmptyWorldNameIsRefused(t *testing.T) {
	c := mockclient.New("http://127.0.0.1:1", mockclient.WithWorld(""))
	if _, err := c.Reset(context.Background(), mockclient.Reset{}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("Reset with WithWorld(\"\"): %v, want a refusal", err)
	}
	if err := mockclient.New("http://127.0.0.1:1").World("").ClearFaults(context.Background()); err == nil {
		t.Error("World(\"\") was taken for the default world")
	}
}

// A world name the mock refuses is quoted as the caller wrote it, not in the %-encoding the
// client sent it in.
func TestRefusedWorldNameIsQuotedAsWritten(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"été", "a/b", "a b"} {
		_, err := newClient(t, mockserver.Config{}).World(name).Clock(ctx)
		if err == nil || !strings.Contains(err.Error(), `"`+name+`"`) {
			t.Errorf("World(%q).Clock: %v, want a refusal quoting %q", name, err, name)
		}
	}
}

// A base URL that streams an endless answer (a wrong URL, a broken proxy) makes a call fail
// with an error naming the bound, not fill the test process's memory.
func TestEndlessAnswerIsRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"users":"`))
		chunk := bytes.Repeat([]byte("a"), 1<<20)
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	_, err := mockclient.New(srv.URL).Reset(t.Context(), mockclient.Reset{})
	if err == nil || !strings.Contains(err.Error(), "passed 64 MiB") {
		t.Fatalf("Reset against an endless answer: %v, want an error naming the bound", err)
	}
}

// A base URL with a query or a fragment, or one that is no http(s) URL, is refused by every
// call, naming the URL, before any request: paths were joined after the query and a reset went
// to the mock's root (a 405 that named the wrong cause).
func TestBaseURLWithAQueryIsRefused(t *testing.T) {
	for _, base := range []string{"http://127.0.0.1:1/?x=1", "http://127.0.0.1:1/#frag", "127.0.0.1:4010", "ftp://h"} {
		_, err := mockclient.New(base, mockclient.WithWorld("w")).Reset(context.Background(), mockclient.Reset{})
		if err == nil || !strings.Contains(err.Error(), base) || strings.Contains(err.Error(), "mock answered") {
			t.Errorf("New(%q).Reset: %v; want a refusal naming the base URL", base, err)
		}
	}
}

// A base URL that redirects to another host is not followed: the admin token goes with every
// call, and would have been handed to that host.
func TestRedirectToAnotherHostIsNotFollowed(t *testing.T) {
	var leaked atomic.Bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.Store(r.Header.Get("X-Mock-Admin-Token") != "")
		_, _ = w.Write([]byte(`{}`))
	}))
	defer other.Close()
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1) // another host name, the same machine
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, otherURL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer redirect.Close()
	for _, c := range []*mockclient.Client{
		mockclient.New(redirect.URL, mockclient.WithAdminToken("SECRET-ADMIN")),
		mockclient.New(redirect.URL, mockclient.WithAdminToken("SECRET-ADMIN"), mockclient.WithHTTPClient(&http.Client{})),
	} {
		_, err := c.Reset(context.Background(), mockclient.Reset{})
		if err == nil || !strings.Contains(err.Error(), "another host") || leaked.Load() {
			t.Errorf("Reset through a redirect to another host: %v (admin token sent there: %v)", err, leaked.Load())
		}
	}
}

// A base URL that is not the mock (a dev server answering its page to every path) is told so
// by every call, those with no answer to decode too; and a base URL that names a world while the
// client names another is refused before any request.
func TestClientTellsABaseURLThatIsNotTheMock(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!doctype html><title>app</title>"))
	}))
	t.Cleanup(page.Close)
	c := mockclient.New(page.URL)
	ctx := context.Background()
	if err := c.ClearFaults(ctx); err == nil || !strings.Contains(err.Error(), "is "+page.URL+" the mock's base URL") {
		t.Errorf("ClearFaults against a page: %v, want an error asking whether the URL is the mock's", err)
	}
	if _, err := c.Reset(ctx, mockclient.Reset{}); err == nil || !strings.Contains(err.Error(), "the mock's base URL") {
		t.Errorf("Reset against a page: %v, want an error asking whether the URL is the mock's", err)
	}
	nested := mockclient.New(page.URL+"/__worlds/other", mockclient.WithWorld("x1"))
	if err := nested.ClearFaults(ctx); err == nil || !strings.Contains(err.Error(), "already names a world") {
		t.Errorf("a world's URL with WithWorld: %v, want it refused", err)
	}
}

// A negative Limit is sent, and refused as the HTTP query is, not taken for "all kept".
func TestNegativeLimitIsRefused(t *testing.T) {
	c := newClient(t, mockserver.Config{})
	if _, err := c.Requests(context.Background(), mockclient.Filter{Limit: -1}); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("Requests with Limit -1: %v, want a refusal naming limit", err)
	}
	if _, err := c.Requests(context.Background(), mockclient.Filter{}); err != nil {
		t.Errorf("Requests with no limit: %v", err)
	}
}

// A client made with a world's URL addresses that world: BaseURL is the URL given (never the
// world's prefix twice, as http://mock/__worlds/mc1/__worlds/mc2 was), World(name) moves to
// another world of the same mock, and WithWorld naming another world is refused by every call.
func TestClientMadeWithAWorldsURL(t *testing.T) {
	ctx := context.Background()
	mock := newClient(t, mockserver.Config{}).BaseURL()
	c := mockclient.New(mock + "/__worlds/mc1/")
	if got := c.BaseURL(); got != mock+"/__worlds/mc1" {
		t.Errorf("BaseURL of a world's URL: %q", got)
	}
	if got := c.WorldName(); got != "mc1" {
		t.Errorf("WorldName of a world's URL: %q, want mc1", got)
	}
	if r, err := c.Reset(ctx, mockclient.Reset{}); err != nil || r.World != "mc1" {
		t.Errorf("Reset through a world's URL: %+v %v, want world mc1", r, err)
	}
	if r, err := mockclient.New(mock+"/__worlds/mc1", mockclient.WithWorld("mc1")).Reset(ctx, mockclient.Reset{}); err != nil || r.World != "mc1" {
		t.Errorf("a world's URL with WithWorld of the same world: %+v %v", r, err)
	}
	other := c.World("mc2")
	if got := other.BaseURL(); got != mock+"/__worlds/mc2" {
		t.Errorf("World(mc2) of a client of mc1's URL: BaseURL %q, want %q", got, mock+"/__worlds/mc2")
	}
	if r, err := other.Reset(ctx, mockclient.Reset{}); err != nil || r.World != "mc2" {
		t.Errorf("Reset of World(mc2): %+v %v, want world mc2", r, err)
	}
	clash := mockclient.New(mock+"/__worlds/mc1", mockclient.WithWorld("mc2"))
	if got := clash.BaseURL(); strings.Count(got, "/__worlds/") != 1 {
		t.Errorf("a world's URL with WithWorld of another: BaseURL %q names two worlds", got)
	}
	if _, err := clash.Reset(ctx, mockclient.Reset{}); err == nil || !strings.Contains(err.Error(), "already names a world") {
		t.Errorf("a world's URL with WithWorld of another: %v, want it refused", err)
	}
}

// Base URLs whose path the mock does not route as its own or one world's are refused by every
// call, and name no world: the dashboard's URL pasted as the base, an empty segment, two
// worlds' prefixes, a %-escaped world's name.
func TestBaseURLsNoCallReaches(t *testing.T) {
	ctx := context.Background()
	mock := newClient(t, mockserver.Config{}).BaseURL()
	for _, base := range []string{mock + "/__mock/", mock + "/__mock/clock", mock + "//__worlds/w1", mock + "/__worlds/w1/__worlds/w2", mock + "/__worlds/%77x", mock + "/__worlds/w1/x"} {
		c := mockclient.New(base)
		if name := c.WorldName(); name != "" {
			t.Errorf("New(%q).WorldName() = %q: names a world no call reaches", base, name)
		}
		if _, err := c.Clock(ctx); err == nil || !strings.Contains(err.Error(), "is not the mock's URL") {
			t.Errorf("New(%q).Clock: %v, want the base URL refused", base, err)
		}
	}
	for _, base := range []string{mock, mock + "/", mock + "/__worlds/w1", mock + "/__worlds/w1/"} {
		if _, err := mockclient.New(base).Clock(ctx); err != nil {
			t.Errorf("New(%q).Clock: %v", base, err)
		}
	}
}

// The default world is "" by WorldName however it is named: WithWorld("default"), a base URL
// ending /__worlds/default.
func TestWorldNameOfTheDefaultWorld(t *testing.T) {
	for _, c := range []*mockclient.Client{
		mockclient.New("http://127.0.0.1:4010"),
		mockclient.New("http://127.0.0.1:4010", mockclient.WithWorld("default")),
		mockclient.New("http://127.0.0.1:4010/__worlds/default"),
		mockclient.New("http://127.0.0.1:4010").World("default"),
	} {
		if got := c.WorldName(); got != "" {
			t.Errorf("WorldName of the default world (%s): %q, want \"\"", c.BaseURL(), got)
		}
	}
}

// A snapshot read with State names the seed and scenario its records came from, and PutState
// sends them back: a world of seed 7 copied into another world keeps its carts and their
// session tokens in the manifest (the client's snapshot had no source, and the copy's manifest
// was the default seed's, its carts blanked). A clock given with the snapshot moves the world's.
func TestSnapshotKeepsItsSourceAndClock(t *testing.T) {
	ctx := context.Background()
	mock := newClient(t, mockserver.Config{})
	from, to := mock.World("seven"), mock.World("copy")
	if _, err := from.Reset(ctx, mockclient.Reset{Seed: 7}); err != nil {
		t.Fatal(err)
	}
	want, err := from.Manifest(ctx)
	if err != nil || len(want.Domains.Carts) == 0 {
		t.Fatalf("seed 7's manifest: %v, carts %d", err, len(want.Domains.Carts))
	}
	snap, err := from.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Source == nil || snap.Source.Seed != 7 || snap.Source.Scenario != "default" {
		t.Fatalf("the snapshot's source: %+v, want seed 7, scenario default", snap.Source)
	}
	at := time.Date(2027, 3, 4, 5, 6, 7, 0, time.UTC)
	snap.Clock = &mockclient.SnapshotClock{Now: at, Frozen: true}
	if err := to.PutState(ctx, snap); err != nil {
		t.Fatal(err)
	}
	got, err := to.Manifest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Domains.Carts) != len(want.Domains.Carts) || got.Domains.Carts[0].SessionToken != want.Domains.Carts[0].SessionToken {
		t.Errorf("the copy's carts: %+v, want seed 7's %+v", got.Domains.Carts, want.Domains.Carts)
	}
	if clk, err := to.Clock(ctx); err != nil || !clk.Now.Equal(at) || !clk.Frozen {
		t.Errorf("the copy's clock: %+v %v, want %s frozen", clk, err, at)
	}
	ws, err := mock.Worlds(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if w.Name == "copy" && w.Seed != 7 {
			t.Errorf("the copy reports seed %d, want 7", w.Seed)
		}
	}
}

// A refused login is an *Error whose Message is the mock's sentence: authenticate's errors are
// a list, not keyed by field, and the whole body went into Message.
func TestRefusedLoginSaysWhy(t *testing.T) {
	c := newClient(t, mockserver.Config{})
	_, err := c.Login(context.Background(), "nobody@example.com", "wrong-password")
	var e *mockclient.Error
	if !errors.As(err, &e) || e.Status != http.StatusUnauthorized {
		t.Fatalf("a wrong password: %v, want a 401 *Error", err)
	}
	if e.Message != "These credentials do not match our records." {
		t.Errorf("Message = %q, want the mock's sentence", e.Message)
	}
}
