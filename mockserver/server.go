package mockserver

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/reference"
	"github.com/opsapi/mocktoolkit/spec"
)

// Server is the mock: an http.Handler serving the interface's operations and the mock's own
// controls over one seeded world, with what embedding tests need to steer it from Go (as
// fake-gcs-server's Server does). The world is swapped whole on reset, so a request sees one
// world from start to end. It is safe for concurrent use.
type Server struct {
	cfg     Config
	logger  *slog.Logger
	clock   *Clock
	doc     *openapi3.T
	limiter *rateLimiter
	logins  *loginThrottle // failed logins per client address (D71, throttle.go)
	ops     map[string]*route
	ctrl    map[string]http.HandlerFunc
	handler http.Handler

	steering *steering // fault rules, journal, latency, admin token, CORS (steering.go)

	world atomic.Pointer[world]
}

// world is the store of one seeded world and the manifest that describes it.
type world struct {
	store    *reference.Store
	manifest fixtures.Manifest
}

// New returns the mock for cfg: the seeded world of cfg.Seed (or cfg.State) behind the request
// pipeline described in the package documentation.
func New(cfg Config) (*Server, error) {
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
	s := &Server{cfg: cfg, logger: logger, clock: NewClock(cfg.Now), doc: doc}
	s.limiter = newRateLimiter(cfg.RateLimit, s.clock.Now)
	s.logins = newLoginThrottle(s.clock.Now)
	if err := s.reset(cfg.Seed); err != nil {
		return nil, fmt.Errorf("new mock server: %w", err)
	}
	if cfg.State != nil {
		if err := s.LoadState(*cfg.State); err != nil {
			return nil, fmt.Errorf("new mock server: load state: %w", err)
		}
	}
	s.steering = newSteering(cfg)
	if s.ops, err = buildRoutes(doc, s.operations()); err != nil {
		return nil, fmt.Errorf("new mock server: %w", err)
	}
	for _, rt := range s.ops {
		rt.handler = s.pipeline(rt)
	}
	s.ctrl = s.controls()
	s.steering.ctrlMethods = methodsByPath(s.ctrl)
	s.handler = s.chain()
	return s, nil
}

// ServeHTTP serves one request through the pipeline.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Snapshot returns the whole state of the current world: what GET /__mock/state answers and
// Config.State or LoadState load.
func (s *Server) Snapshot() reference.State { return s.store().State() }

// LoadState replaces the world with one made of st (a snapshot), keeping the fixture manifest.
// A state that does not load leaves the old world in place.
func (s *Server) LoadState(st reference.State) error {
	store, err := reference.New(st, s.storeOptions()...)
	if err != nil {
		return err
	}
	old := s.world.Load()
	s.world.Store(&world{store: store, manifest: old.manifest})
	return nil
}

// Reset puts back the world of seed (the configured seed when 0), as POST /__mock/reset does:
// rate windows, the login throttle, fault rules and the journal are cleared, and tokens of the
// old world stop working. The clock is kept.
func (s *Server) Reset(seed int64) error {
	if seed == 0 {
		seed = s.cfg.Seed
	}
	if err := s.reset(seed); err != nil {
		return err
	}
	s.limiter.clear()
	s.logins.clear()
	s.steering.faults.clear()
	s.steering.journal.clear()
	s.steering.rand.reseed(seed)
	return nil
}

// Manifest describes the seeded world: logins and the ids of records to use.
func (s *Server) Manifest() fixtures.Manifest { return s.world.Load().manifest }

// Now is the mock's clock.
func (s *Server) Now() time.Time { return s.clock.Now() }

// Advance moves the mock's clock forward by d (rate windows, snoozes, overdue cards follow);
// it refuses to move past LatestClock (D63).
func (s *Server) Advance(d time.Duration) error { return s.clock.Advance(d) }

// reset replaces the world with the one seeded by seed, built at the clock's current time.
func (s *Server) reset(seed int64) error {
	w := fixtures.Build(seed, s.clock.Now())
	st, err := reference.New(w.State, s.storeOptions()...)
	if err != nil {
		return fmt.Errorf("load seeded world %d: %w", seed, err)
	}
	s.world.Store(&world{store: st, manifest: w.Manifest})
	return nil
}

// store is the current world's store.
func (s *Server) store() *reference.Store { return s.world.Load().store }

// storeOptions are the options of every store the mock loads: its clock and the record cap.
func (s *Server) storeOptions() []reference.Option {
	return []reference.Option{reference.WithClock(s.clock), reference.WithMaxRecordsPerProject(s.cfg.MaxRecords)}
}
