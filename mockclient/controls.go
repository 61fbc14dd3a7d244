package mockclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/reference"
)

// WorldInfo is one world of GET /__mock/worlds.
type WorldInfo struct {
	Name     string    `json:"name"`
	Scenario string    `json:"scenario"`
	Seed     int64     `json:"seed"`
	Snapshot bool      `json:"snapshot"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"last_used"`
	Requests int64     `json:"requests"`
	Now      string    `json:"now"`
	Frozen   bool      `json:"frozen"`
	Notes    []string  `json:"notes"`
	// RecordsBytes is about how much memory the world's records take (--max-state-mb).
	RecordsBytes int64 `json:"records_bytes"`
}

// Worlds lists every world the mock holds, the default one first.
func (c *Client) Worlds(ctx context.Context) ([]WorldInfo, error) {
	var out struct {
		Worlds []WorldInfo `json:"worlds"`
	}
	err := c.do(ctx, "GET", "/__mock/worlds", nil, worldsAnswer, &out)
	return out.Worlds, err
}

// Reset is what a reset builds: a seed (0: the mock's --seed) and a scenario ("": the mock's
// --scenario), such as "empty", "busy", "edge" or a scenario file's name.
type Reset struct {
	Seed     int64  `json:"seed,omitempty"`
	Scenario string `json:"scenario,omitempty"`
}

// ResetResult is the answer of a reset.
type ResetResult struct {
	World    string            `json:"world"`
	Seed     int64             `json:"seed"`
	Scenario string            `json:"scenario"`
	Now      string            `json:"now"`
	Fixtures fixtures.Manifest `json:"fixtures"`
}

// Reset builds the world again from r: records, tokens, rate windows, fault rules and the
// journal start over; the clock is kept.
func (c *Client) Reset(ctx context.Context, r Reset) (ResetResult, error) {
	var out ResetResult
	err := c.do(ctx, "POST", "/__mock/reset", r, resetAnswer, &out)
	return out, err
}

// Clock is the world's time.
type Clock struct {
	Now    time.Time `json:"now"`
	Frozen bool      `json:"frozen"`
	World  string    `json:"world"`
}

// Clock reads the world's clock.
func (c *Client) Clock(ctx context.Context) (Clock, error) {
	var out Clock
	err := c.do(ctx, "GET", "/__mock/clock", nil, clockAnswer, &out)
	return out, err
}

// SetClock sets the world's clock to t (forward or back). The clock keeps whole seconds: a
// fraction of t is dropped (t.Truncate(time.Second)).
func (c *Client) SetClock(ctx context.Context, t time.Time) (Clock, error) {
	return c.clock(ctx, map[string]any{"set": t.UTC().Format(time.RFC3339)})
}

// Freeze stops the world's clock (true) or lets it run again (false).
func (c *Client) Freeze(ctx context.Context, frozen bool) (Clock, error) {
	return c.clock(ctx, map[string]any{"freeze": frozen})
}

// Advance moves the world's clock forward by d, a whole number of seconds: a part of a second
// is an error (it used to be dropped, so Advance(500ms) moved nothing and said nothing).
func (c *Client) Advance(ctx context.Context, d time.Duration) (Clock, error) {
	if d%time.Second != 0 {
		return Clock{}, fmt.Errorf("mockclient: Advance(%s): the clock moves in whole seconds", d)
	}
	return c.clock(ctx, map[string]any{"advance_seconds": int64(d / time.Second)})
}

// SystemClock gives the world's clock back to the system time, running: the way back from
// SetClock, Freeze and Advance, which a Reset keeps.
func (c *Client) SystemClock(ctx context.Context) (Clock, error) {
	var out Clock
	err := c.do(ctx, "DELETE", "/__mock/clock", nil, clockAnswer, &out)
	return out, err
}

func (c *Client) clock(ctx context.Context, body map[string]any) (Clock, error) {
	var out Clock
	err := c.do(ctx, "POST", "/__mock/clock", body, clockAnswer, &out)
	return out, err
}

// Fault is a fault rule: on calls to Operation (an operationId), answer Status and/or add
// LatencyMS, for the next Times calls or with Probability, or on every call.
type Fault struct {
	ID          int64   `json:"id,omitempty"`
	Operation   string  `json:"operation"`
	Status      int     `json:"status,omitempty"`
	LatencyMS   int64   `json:"latency_ms,omitempty"`
	Times       int     `json:"times,omitempty"`
	Remaining   int     `json:"remaining,omitempty"`
	Probability float64 `json:"probability,omitempty"`
}

// AddFault adds a fault rule to the world and returns it with its id.
func (c *Client) AddFault(ctx context.Context, f Fault) (Fault, error) {
	f.ID, f.Remaining = 0, 0
	var out Fault
	err := c.do(ctx, "POST", "/__mock/faults", f, faultAnswer, &out)
	return out, err
}

// Faults lists the world's fault rules.
func (c *Client) Faults(ctx context.Context) ([]Fault, error) {
	var out struct {
		Faults []Fault `json:"faults"`
	}
	err := c.do(ctx, "GET", "/__mock/faults", nil, faultsAnswer, &out)
	return out.Faults, err
}

// ClearFaults removes the world's fault rules.
func (c *Client) ClearFaults(ctx context.Context) error {
	return c.do(ctx, "DELETE", "/__mock/faults", nil, faultsAnswer, nil)
}

// Filter selects journal entries: an operationId, a status ("404") or class ("4xx"), at most
// Limit of them (0: all kept; a negative Limit is refused).
type Filter struct {
	Operation string
	Status    string
	Limit     int
}

func (f Filter) query() string {
	q := url.Values{}
	if f.Operation != "" {
		q.Set("operation", f.Operation)
	}
	if f.Status != "" {
		q.Set("status", f.Status)
	}
	if f.Limit != 0 { // a negative one too: the mock refuses it, rather than keep all
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

// Request is one journal entry: a request to the API and its answer, credentials redacted.
type Request struct {
	ID         int64     `json:"id"`
	Time       time.Time `json:"time"`
	World      string    `json:"world"`
	Method     string    `json:"method"`
	Path       string    `json:"path"`
	Operation  string    `json:"operation"`
	Status     int       `json:"status"`
	DurationMS float64   `json:"duration_ms"`
	Request    Body      `json:"request"`
	Response   Body      `json:"response"`
}

// Body is the headers and body of a journal entry's request or answer.
type Body struct {
	Headers map[string]string `json:"headers"`
	Body    any               `json:"body"`
}

// Requests lists the world's journal, newest first.
func (c *Client) Requests(ctx context.Context, f Filter) ([]Request, error) {
	var out struct {
		Requests []Request `json:"requests"`
	}
	err := c.do(ctx, "GET", "/__mock/requests"+f.query(), nil, requestsAnswer, &out)
	return out.Requests, err
}

// Count is how often the world's operation was called (with a status that matches) since its
// last reset or journal clear: WireMock's verify.
func (c *Client) Count(ctx context.Context, f Filter) (int, error) {
	f.Limit = 0
	var out struct {
		Count int `json:"count"`
	}
	err := c.do(ctx, "GET", "/__mock/requests/count"+f.query(), nil, countAnswer, &out)
	return out.Count, err
}

// ClearRequests empties the world's journal and its counts.
func (c *Client) ClearRequests(ctx context.Context) error {
	return c.do(ctx, "DELETE", "/__mock/requests", nil, requestsClearedAnswer, nil)
}

// Manifest is the world's fixture manifest: logins and ids of records to act on.
func (c *Client) Manifest(ctx context.Context) (fixtures.Manifest, error) {
	var out fixtures.Manifest
	err := c.do(ctx, "GET", "/__mock/fixtures", nil, manifestAnswer, &out)
	return out, err
}

// A Snapshot is a world's records as GET /__mock/state answers them, with the seed and
// scenario they were built from; PUT /__mock/state takes one back, with a clock to set if given.
type Snapshot struct {
	reference.State
	// Source is where the records came from: the world loading them checks its fixture
	// manifest against that source's, so a copy of a world of another seed keeps its carts
	// and logins. nil: the loading world's own.
	Source *Source `json:"source,omitempty"`
	// Clock, when set, is where the loading world's clock goes (whole seconds); State leaves it
	// nil, so putting a snapshot back does not move the clock unless asked.
	Clock *SnapshotClock `json:"clock,omitempty"`
}

// Source names the seed and scenario a world's records were built from.
type Source struct {
	Seed     int64  `json:"seed"`
	Scenario string `json:"scenario"`
}

// SnapshotClock is the clock a snapshot sets: the instant it reads, and whether it stands still.
type SnapshotClock struct {
	Now    time.Time
	Frozen bool
}

// MarshalJSON writes the clock as the mock reads it: {"now": RFC 3339 in UTC, "frozen"}.
func (k SnapshotClock) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]any{"now": k.Now.UTC().Format(time.RFC3339), "frozen": k.Frozen})
}

// State is a snapshot of the world's records and their source.
func (c *Client) State(ctx context.Context) (Snapshot, error) {
	var out Snapshot
	err := c.do(ctx, "GET", "/__mock/state", nil, stateAnswer, &out)
	return out, err
}

// PutState replaces the world's records with those of s (and sets its clock, if s has one).
func (c *Client) PutState(ctx context.Context, s Snapshot) error {
	return c.do(ctx, "PUT", "/__mock/state", s, stateLoadedAnswer, nil)
}

// Login authenticates in the world and returns the bearer token.
func (c *Client) Login(ctx context.Context, email, password string) (string, error) {
	var out struct {
		Data struct {
			Token string `json:"token"`
		} `json:"data"`
	}
	err := c.do(ctx, "POST", "/v1/authenticate", map[string]string{"email": email, "password": password}, loginAnswer, &out)
	return out.Data.Token, err
}

// LoginAs logs in as a role of the world's manifest: "member", "teammate" (another user of the
// member's project), "superadmin" or "outsider".
func (c *Client) LoginAs(ctx context.Context, role string) (string, error) {
	m, err := c.Manifest(ctx)
	if err != nil {
		return "", err
	}
	creds := map[string]fixtures.Credentials{"member": m.Users.Member, "teammate": m.Users.Teammate, "superadmin": m.Users.Superadmin, "outsider": m.Users.Outsider}[role]
	if creds.Email == "" { // no request was made: not an answer of the mock
		return "", fmt.Errorf("mockclient: LoginAs(%q): the manifest names no login for that role; want member, teammate, superadmin or outsider", role)
	}
	return c.Login(ctx, creds.Email, creds.Password)
}

// DeleteWorld forgets the named world (a worker's teardown); its next use builds it afresh.
func (c *Client) DeleteWorld(ctx context.Context, name string) error {
	server := *c // the worlds are the server's: asked of the default world's controls
	server.world, server.unnamed = "", false
	want := worldDeletedAnswer
	if name == "default" { // reset, never forgotten (D147)
		want = worldResetAnswer
	}
	return server.do(ctx, "DELETE", "/__mock/worlds?name="+url.QueryEscape(name), nil, want, nil)
}
