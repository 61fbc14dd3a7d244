package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The interface leaves the lifetime of tokens open, so a deployment may keep one live token per
// user and end the earlier ones at each login. The suite's processes log the same users in, so
// there each login ended a token another process was about to use, and their renewals ended
// each other's in turn: a right deployment failed with 401s (D212). A login of a role therefore
// holds a lease, one at a time across the run's processes, and every process learns the token
// the latest login gave: a process whose token was ended takes that one instead of logging in
// again.

// leaseTTL is how long a lease holds when its process never releases it (a process lost
// mid-login): longer than any login takes, shorter than a stalled run.
const leaseTTL = 2 * time.Minute

// loginTable keeps, for each role, the lease and the token of its latest login.
type loginTable struct {
	mu    sync.Mutex
	roles map[string]*roleLogins
}

type roleLogins struct {
	lease  chan struct{} // holds one value while a login of the role is under way
	gen    int64         // counts the leases, so a late release cannot end a newer one
	latest string
}

func (t *loginTable) role(name string) *roleLogins {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.roles == nil {
		t.roles = map[string]*roleLogins{}
	}
	rl := t.roles[name]
	if rl == nil {
		rl = &roleLogins{lease: make(chan struct{}, 1)}
		t.roles[name] = rl
	}
	return rl
}

// lease waits for the role's lease and returns the latest token and the lease's number.
func (t *loginTable) lease(ctx context.Context, role string) (latest string, gen int64, err error) {
	rl := t.role(role)
	select {
	case rl.lease <- struct{}{}:
	case <-ctx.Done():
		return "", 0, ctx.Err()
	}
	t.mu.Lock()
	rl.gen++
	gen, latest = rl.gen, rl.latest
	t.mu.Unlock()
	time.AfterFunc(leaseTTL, func() { t.release(role, "", gen) })
	return latest, gen, nil
}

// release ends lease gen of role; a token not empty is the latest now.
func (t *loginTable) release(role, token string, gen int64) {
	rl := t.role(role)
	t.mu.Lock()
	defer t.mu.Unlock()
	if gen != rl.gen {
		return // released already, or expired and leased again
	}
	rl.gen++
	if token != "" {
		rl.latest = token
	}
	select {
	case <-rl.lease:
	default:
	}
}

// serveLease and serveRelease are the coordinator's side (parallel.go): GET
// /conformance/login-lease?role= waits for the lease; POST /conformance/login-release?role=&lease=
// with the new token (or nothing) as its body ends it.
func (t *loginTable) serveLease(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), leaseTTL)
	defer cancel()
	latest, gen, err := t.lease(ctx, r.URL.Query().Get("role"))
	if err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	_ = json.NewEncoder(w).Encode(loginLease{Token: latest, Lease: gen})
}

func (t *loginTable) serveRelease(w http.ResponseWriter, r *http.Request) {
	gen, err := strconv.ParseInt(r.URL.Query().Get("lease"), 10, 64)
	token, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	t.release(r.URL.Query().Get("role"), strings.TrimSpace(string(token)), gen)
}

type loginLease struct {
	Token string
	Lease int64
}

// ShareLogins makes the client's login leases (LoginLease) those of the parallel run whose
// coordinator is at host (a Ginkgo parallel host URL); without it, they are the process's own.
func (c *Client) ShareLogins(host string) { c.loginHost = strings.TrimRight(host, "/") }

// LoginLease waits until no other process of the run is logging role in, and returns the token
// the run's latest login of role gave ("" before the first) and release, which ends the lease
// and, given a new token, makes it the latest. A coordinator that does not answer (the ginkgo
// CLI's own, under -p) leaves the login unshared rather than failing the spec.
func (c *Client) LoginLease(ctx context.Context, role string) (latest string, release func(token string)) {
	if c.loginHost == "" {
		latest, gen, err := c.logins.lease(ctx, role)
		if err != nil {
			return "", func(string) {}
		}
		return latest, func(token string) { c.logins.release(role, token, gen) }
	}
	q := url.Values{"role": {role}}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.loginHost+"/conformance/login-lease?"+q.Encode(), nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", func(string) {}
	}
	defer res.Body.Close()
	var l loginLease
	if res.StatusCode != http.StatusOK || json.NewDecoder(res.Body).Decode(&l) != nil {
		return "", func(string) {}
	}
	return l.Token, func(token string) {
		q.Set("lease", fmt.Sprint(l.Lease))
		res, err := http.Post(c.loginHost+"/conformance/login-release?"+q.Encode(), "text/plain", strings.NewReader(token))
		if err == nil {
			res.Body.Close()
		}
	}
}
