package mockserver

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/reference"
	"github.com/opsapi/mocktoolkit/spec"
)

// server holds what the pipeline needs: the spec, the clock, the rate limiter and the current
// seeded world. The store is swapped whole on reset, so a request sees one world.
type server struct {
	cfg     Config
	logger  *slog.Logger
	clock   *Clock
	doc     *openapi3.T
	limiter *rateLimiter
	logins  *loginThrottle // failed logins per e-mail and client (D71, throttle.go)
	ops     map[string]*route
	ctrl    map[string]http.HandlerFunc

	steering *steering // fault rules, journal, latency, admin token, CORS (steering.go)

	world atomic.Pointer[world]
}

// world is the store of one seeded world and the manifest that describes it.
type world struct {
	store    *reference.Store
	manifest fixtures.Manifest
}

// route is an operation with its spec route, ready to serve.
type route struct {
	operation
	spec    *routers.Route
	handler http.Handler
	lists   map[int]bool // the statuses the spec lists for the operation
}

// New returns the mock server for cfg as an http.Handler: the seeded world of cfg.Seed behind
// the request pipeline described in the package documentation.
func New(cfg Config) (http.Handler, error) {
	s, err := newServer(cfg)
	if err != nil {
		return nil, err
	}
	return &mockHandler{Handler: s.handler(), s: s}, nil
}

func newServer(cfg Config) (*server, error) {
	if cfg.Seed == 0 {
		cfg.Seed = fixtures.DefaultSeed
	}
	if cfg.RateLimit <= 0 {
		cfg.RateLimit = DefaultRateLimit
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	doc, err := spec.Load(context.Background())
	if err != nil {
		return nil, fmt.Errorf("new mock server: %w", err)
	}
	s := &server{cfg: cfg, logger: logger, clock: NewClock(cfg.Now), doc: doc}
	s.limiter = newRateLimiter(cfg.RateLimit, s.clock.Now)
	s.logins = newLoginThrottle(s.clock.Now)
	if err := s.reset(cfg.Seed); err != nil {
		return nil, err
	}
	if cfg.State != nil {
		if err := s.loadState(*cfg.State); err != nil {
			return nil, fmt.Errorf("new mock server: load state: %w", err)
		}
	}
	s.steering = newSteering(cfg, doc, operations())
	s.ops = map[string]*route{}
	for _, op := range operations() {
		r, ok := spec.Route(doc, op.path)
		if !ok {
			return nil, fmt.Errorf("new mock server: operation %s: no route %s in the spec", op.id, op.path)
		}
		rt := &route{operation: op, spec: r, lists: listedStatuses(r)}
		rt.handler = s.pipeline(rt)
		s.ops[op.path] = rt
	}
	s.ctrl = s.controls()
	s.steering.ctrlMethods = methodsByPath(s.ctrl)
	return s, nil
}

// reset replaces the world with the one seeded by seed, built at the clock's current time.
func (s *server) reset(seed int64) error {
	w := fixtures.Build(seed, s.clock.Now())
	st, err := reference.New(w.State, s.storeOptions()...)
	if err != nil {
		return fmt.Errorf("load seeded world %d: %w", seed, err)
	}
	s.world.Store(&world{store: st, manifest: w.Manifest})
	return nil
}

// store is the current world's store.
func (s *server) store() *reference.Store { return s.world.Load().store }

// listedStatuses are the response statuses the spec lists for a route's operation.
func listedStatuses(r *routers.Route) map[int]bool {
	lists := map[int]bool{}
	for code := range r.Operation.Responses.Map() {
		if n, err := strconv.Atoi(code); err == nil {
			lists[n] = true
		}
	}
	return lists
}
