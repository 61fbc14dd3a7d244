package mockclient_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockclient"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// control is one method of the client, the control it calls, the first member the mock
// always sends in its answer, and answers of a wrong kind (or lacking a member of an object
// in them) with the member each error names.
type control struct {
	name   string
	path   string
	call   func(context.Context, *mockclient.Client) error
	member string
	wrong  map[string]string
}

// controls are every method of the client that reads an answer.
var controls = []control{
	{"Worlds", "/__mock/worlds", func(ctx context.Context, c *mockclient.Client) error { _, err := c.Worlds(ctx); return err },
		"worlds", map[string]string{`{"worlds":{}}`: "worlds", `{"worlds":[],"max_worlds":"8"}`: "max_worlds"}},
	{"Reset", "/__mock/reset", func(ctx context.Context, c *mockclient.Client) error {
		_, err := c.Reset(ctx, mockclient.Reset{})
		return err
	}, "fixtures", map[string]string{
		`{"fixtures":[]}`: "fixtures",
		`{"fixtures":{}}`: "fixtures.users",
		`{"fixtures":{"users":{"member":{"email":1}}}}`: "fixtures.users.member.email",
	}},
	{"Clock", "/__mock/clock", func(ctx context.Context, c *mockclient.Client) error { _, err := c.Clock(ctx); return err },
		"now", map[string]string{`{"now":1780304400}`: "now", `{"now":"2026-06-01T09:00:00Z","frozen":"no"}`: "frozen"}},
	{"SetClock", "/__mock/clock", func(ctx context.Context, c *mockclient.Client) error {
		_, err := c.SetClock(ctx, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
		return err
	}, "now", map[string]string{`{"now":null}`: "now"}},
	{"Freeze", "/__mock/clock", func(ctx context.Context, c *mockclient.Client) error { _, err := c.Freeze(ctx, true); return err },
		"now", map[string]string{`{"now":"2026-06-01T09:00:00Z","frozen":1}`: "frozen"}},
	{"Advance", "/__mock/clock", func(ctx context.Context, c *mockclient.Client) error { _, err := c.Advance(ctx, time.Hour); return err },
		"now", map[string]string{`{"now":[]}`: "now"}},
	{"SystemClock", "/__mock/clock", func(ctx context.Context, c *mockclient.Client) error { _, err := c.SystemClock(ctx); return err },
		"now", map[string]string{`{"now":"2026-06-01T09:00:00Z","frozen":false}`: "world"}},
	{"AddFault", "/__mock/faults", func(ctx context.Context, c *mockclient.Client) error {
		_, err := c.AddFault(ctx, mockclient.Fault{Operation: "tagsList", Status: 500})
		return err
	}, "id", map[string]string{`{"id":"1","operation":"tagsList"}`: "id"}},
	{"Faults", "/__mock/faults", func(ctx context.Context, c *mockclient.Client) error { _, err := c.Faults(ctx); return err },
		"faults", map[string]string{`{"faults":null}`: "faults"}},
	{"ClearFaults", "/__mock/faults", func(ctx context.Context, c *mockclient.Client) error { return c.ClearFaults(ctx) },
		"faults", map[string]string{`{"faults":{}}`: "faults"}},
	{"Requests", "/__mock/requests", func(ctx context.Context, c *mockclient.Client) error {
		_, err := c.Requests(ctx, mockclient.Filter{Operation: "cardsCreate"})
		return err
	}, "requests", map[string]string{`{"requests":"none"}`: "requests"}},
	{"Count", "/__mock/requests/count", func(ctx context.Context, c *mockclient.Client) error {
		_, err := c.Count(ctx, mockclient.Filter{Operation: "cardsCreate"})
		return err
	}, "count", map[string]string{`{"count":"3"}`: "count", `{"count":3}`: "world", `{"count":true}`: "count"}},
	{"ClearRequests", "/__mock/requests", func(ctx context.Context, c *mockclient.Client) error { return c.ClearRequests(ctx) },
		"requests", map[string]string{`{"requests":0}`: "requests"}},
	{"Manifest", "/__mock/fixtures", func(ctx context.Context, c *mockclient.Client) error { _, err := c.Manifest(ctx); return err },
		"users", map[string]string{`{"users":[]}`: "users", `{"users":{"member":{"email":"a@b.c","password":"x"}}}`: "users.superadmin"}},
	{"LoginAs", "/__mock/fixtures", func(ctx context.Context, c *mockclient.Client) error { _, err := c.LoginAs(ctx, "member"); return err },
		"users", map[string]string{`{"users":{"member":null}}`: "users.member"}},
	{"State", "/__mock/state", func(ctx context.Context, c *mockclient.Client) error { _, err := c.State(ctx); return err },
		"users", map[string]string{`{"users":{}}`: "users", `{"users":[]}`: "projects"}},
	{"PutState", "/__mock/state", func(ctx context.Context, c *mockclient.Client) error { return c.PutState(ctx, mockclient.Snapshot{}) },
		"loaded", map[string]string{`{"loaded":"true","users":1,"cards":0}`: "loaded"}},
	{"Login", "/v1/authenticate", func(ctx context.Context, c *mockclient.Client) error {
		_, err := c.Login(ctx, "a@b.c", "pw")
		return err
	},
		"data", map[string]string{`{"data":null}`: "data", `{"data":{"token":3}}`: "data.token", `{"data":{}}`: "data.token"}},
	{"DeleteWorld", "/__mock/worlds", func(ctx context.Context, c *mockclient.Client) error { return c.DeleteWorld(ctx, "w1") },
		"deleted", map[string]string{`{"deleted":true}`: "deleted", `{"reset":"default"}`: "deleted"}},
	{"DeleteWorld(default)", "/__mock/worlds", func(ctx context.Context, c *mockclient.Client) error { return c.DeleteWorld(ctx, "default") },
		"reset", map[string]string{`{"reset":1}`: "reset", `{"deleted":"default"}`: "reset"}},
	{"Flow", "/__mock/flow", func(ctx context.Context, c *mockclient.Client) error { _, err := c.Flow(ctx); return err },
		"steps", map[string]string{`{"steps":{}}`: "steps", `{"steps":[],"flow":"1"}`: "flow"}},
}

// answering is a client of a JSON service that is not the mock: it answers every request 200
// with body, as JSON.
func answering(t *testing.T, body string) (*mockclient.Client, string) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return mockclient.New(srv.URL), srv.URL
}

// A JSON service that is not the mock (null, {}, a list, another service's object) answers no
// call: every method that reads an answer refuses one lacking a member the mock always sends,
// or holding it as another kind of JSON, naming the control and the member and asking whether
// the base URL is the mock's. Read as they were, Count answered 0 and State a world of no
// users, and a test's assertions passed without reaching the mock.
func TestAnswerLackingTheMocksMembersIsRefused(t *testing.T) {
	for _, ctl := range controls {
		cases := map[string]string{"null": ctl.member, "{}": ctl.member, "[]": ctl.member, `"ok"`: ctl.member, "": ctl.member}
		for body, member := range ctl.wrong {
			cases[body] = member
		}
		for body, member := range cases {
			t.Run(ctl.name+" refuses "+body, func(t *testing.T) {
				c, url := answering(t, body)
				err := ctl.call(t.Context(), c)
				if err == nil {
					t.Fatalf("%s against a service answering %s: no error", ctl.name, body)
				}
				msg := err.Error()
				for _, want := range []string{ctl.path, `"` + member + `"`, "is " + url + " the mock's base URL?"} {
					if !strings.Contains(msg, want) {
						t.Errorf("%s against %s: %v\nwant it to name %s", ctl.name, body, err, want)
					}
				}
				if strings.Contains(msg, "mock answered") {
					t.Errorf("%s against %s: %v, which reads as the mock's refusal", ctl.name, body, err)
				}
			})
		}
	}
}

// Every answer of the real mock holds what the client checks for, in every shipped scenario,
// in a world made by its first call, after a snapshot and for the default world.
func TestTheMocksAnswersPassTheCheck(t *testing.T) {
	ctx := t.Context()
	base := newClient(t, mockserver.Config{})
	if _, err := base.World("fresh").Clock(ctx); err != nil {
		t.Errorf("the clock of a world not made yet: %v", err)
	}
	for _, scenario := range []string{"default", "empty", "edge"} {
		t.Run(scenario, func(t *testing.T) {
			c := base.World("w-" + scenario)
			must := func(what string, err error) {
				t.Helper()
				if err != nil {
					t.Errorf("%s: %v", what, err)
				}
			}
			_, err := c.Reset(ctx, mockclient.Reset{Scenario: scenario})
			must("Reset", err)
			for _, role := range []string{"member", "teammate", "superadmin", "outsider"} {
				_, err = c.LoginAs(ctx, role)
				must("LoginAs "+role, err)
			}
			_, err = c.AddFault(ctx, mockclient.Fault{Operation: "tagsList", Status: 500, Times: 2})
			must("AddFault", err)
			_, err = c.Faults(ctx)
			must("Faults", err)
			must("ClearFaults", c.ClearFaults(ctx))
			_, err = c.Clock(ctx)
			must("Clock", err)
			_, err = c.SetClock(ctx, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
			must("SetClock", err)
			_, err = c.Freeze(ctx, true)
			must("Freeze", err)
			_, err = c.Advance(ctx, time.Hour)
			must("Advance", err)
			_, err = c.SystemClock(ctx)
			must("SystemClock", err)
			_, err = c.Requests(ctx, mockclient.Filter{Status: "2xx"})
			must("Requests", err)
			_, err = c.Count(ctx, mockclient.Filter{Operation: "authenticate"})
			must("Count", err)
			_, err = c.Flow(ctx)
			must("Flow", err)
			must("ClearRequests", c.ClearRequests(ctx))
			st, err := c.State(ctx)
			must("State", err)
			must("PutState", c.PutState(ctx, st))
			_, err = c.Manifest(ctx)
			must("Manifest after a snapshot", err)
			_, err = c.Worlds(ctx)
			must("Worlds", err)
			must("DeleteWorld", c.DeleteWorld(ctx, "w-"+scenario))
		})
	}
	if err := base.DeleteWorld(ctx, "default"); err != nil {
		t.Errorf("DeleteWorld(default): %v", err)
	}
}
