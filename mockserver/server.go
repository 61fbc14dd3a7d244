package mockserver

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/internal/answerbound"
	"github.com/opsapi/mocktoolkit/internal/inflight"
	"github.com/opsapi/mocktoolkit/reference"
	"github.com/opsapi/mocktoolkit/spec"
)

// Server is the mock: an http.Handler serving the interface's operations and the mock's own
// controls over isolated worlds (D100), with what embedding tests need to steer them from Go (as
// fake-gcs-server's Server does). Its methods Snapshot, LoadState, Reset, Manifest, Now and
// Advance act on the default world; World(name) gives the same methods for a named one. A
// world's records are swapped whole on reset, so a request sees one state from start to end.
// It is safe for concurrent use.
type Server struct {
	// flowBuilds lets one GET /__mock/flow build its document at a time (D173): a build costs
	// time in the flow's bytes, and parallel ones only multiplied the memory held.
	flowBuilds *answerbound.Turn
	cfg        Config
	logger     *slog.Logger
	base       *Clock // the configured clock (--now), where every new world's clock starts
	doc        *openapi3.T
	ops        map[string]*route
	ctrl       map[string]http.HandlerFunc
	handler    http.Handler

	steering *steering      // latency, admin token, CORS, allowed hosts (steering.go)
	worlds   *registry      // the default world and the named ones (worlds.go)
	journals *journalBudget // what every world's journal holds together (D143)
	flows    *flowBudget    // what every world's flow holds together (D173)
	loading  chan struct{}  // one PUT /__mock/state at a time (D65)
	// uploads are the bytes of large snapshots being received, read whole before their turn to
	// load (D65).
	uploads *inflight.Budget
	// buildSlots bounds the worlds being built at once: a build is CPU work that holds a
	// second copy of a scenario's records until it is done.
	buildSlots chan struct{}
	// admitting makes a world's room under --max-state-mb and counts its records (a reset's or
	// snapshot's swap, a new world's registration) as one step: resets run in parallel passed
	// the check together and then all swapped in, past the bound (D206).
	admitting sync.Mutex
	bigReads  *answerbound.Turn // one whole read of a large world at a time (readWhole)
	// snapshotTurn lets one GET /__mock/state build its answer at a time (handleStateGet).
	snapshotTurn *answerbound.Turn
	// answers are the bytes of large answers still being written (boundAnswers).
	answers   *answerbound.Budget
	bodies    *inflight.Budget                                  // the operations' request bodies held at once (D216)
	scenarios atomic.Pointer[map[string]*fixtures.ScenarioFile] // user-authored, by name (SetScenarios)
	// scenarioProblem is why the scenarios' source stopped loading ("" while it loads), said
	// when a reset names a scenario not among them (SetScenarioProblem).
	scenarioProblem atomic.Pointer[string]
	logins          *loginThrottle // failed logins per client address and e-mail, in every world (D144)
	// unbound is the rate window of requests that name no world the mock can serve, per
	// client address (spendUnbound).
	unbound *rateLimiter
}

// New returns the mock for cfg: the default world of cfg.Seed and cfg.Scenario (or cfg.State)
// behind the request pipeline described in the package documentation.
func New(cfg Config) (*Server, error) {
	if err := cfg.check(); err != nil {
		return nil, &ConfigError{Err: err}
	}
	if cfg.Seed == 0 {
		cfg.Seed = fixtures.DefaultSeed
	}
	if cfg.RateLimit <= 0 {
		cfg.RateLimit = DefaultRateLimit
	}
	if cfg.MaxWorlds == 0 {
		cfg.MaxWorlds = DefaultMaxWorlds
	}
	if cfg.MaxStateMB == 0 {
		cfg.MaxStateMB = DefaultMaxStateMB
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	doc, err := spec.Load(context.Background())
	if err != nil {
		return nil, fmt.Errorf("new mock server: %w", err)
	}
	s := &Server{cfg: cfg, logger: logger, base: NewClock(cfg.Now), doc: doc}
	s.steering = newSteering(cfg)
	s.journals = newJournalBudget(journalBytes)
	s.flows = &flowBudget{}
	s.flowBuilds = answerbound.NewTurn()
	s.bodies = inflight.New(maxBodiesHeld)
	s.SetScenarios(cfg.Scenarios)
	s.loading = make(chan struct{}, 1)
	s.uploads = inflight.New(maxSnapshot + 1)
	s.buildSlots = make(chan struct{}, runtime.GOMAXPROCS(0))
	s.bigReads = answerbound.NewTurn()
	s.snapshotTurn = answerbound.NewTurn()
	s.answers = answerbound.New(maxAnswersInFlight)
	s.logins = newLoginThrottle()
	s.unbound = newRateLimiter(cfg.RateLimit, s.base.WindowNow)
	def, err := s.newWorld(DefaultWorld, Source{Seed: cfg.Seed, Scenario: cfg.Scenario}, s.base.Now())
	if err != nil {
		// The scenario's dates are offsets from the mock's time: at that time (--now) one
		// falls outside the years a date may take, or the scenario cannot be built at all.
		return nil, &ConfigError{Err: fmt.Errorf("the default world cannot be built at %s (--now, --scenario): %w", s.base.Now().UTC().Format(time.RFC3339), err)}
	}
	s.worlds = &registry{max: cfg.MaxWorlds, def: def, named: map[string]*world{}, building: map[string]chan struct{}{}, dropped: map[string]string{}, logger: logger}
	s.flows.reclaim = s.worlds.reclaimFlow
	if size := def.state().store.Size(); cfg.State == nil && size > s.stateLimit() {
		return nil, &ConfigError{Err: fmt.Errorf("the scenario %q needs about %s of records, more than the mock's limit (--max-state-mb %d): start it with a higher --max-state-mb", def.state().source.Scenario, mib(size), cfg.MaxStateMB)}
	}
	if cfg.State != nil {
		from := cfg.StateSource
		if from != nil && !s.knownScenario(from.Scenario) {
			// A scenario renamed or removed while the mock ran: its world was saved naming it,
			// and the next start with the same flags refused the records it had acknowledged.
			// They load; their manifest is the default scenario's, checked against them (D102).
			logger.Warn("the state file names a scenario this mock no longer has; its records load, with the default scenario's fixture manifest checked against them", "scenario", clip(from.Scenario, 80))
			from = &SavedSource{Seed: from.Seed, Scenario: fixtures.DefaultScenario}
		}
		if err := s.loadState(def, *cfg.State, from); err != nil {
			return nil, &StateError{Err: err}
		}
	}
	if err := cfg.Clock.check(); err != nil {
		return nil, &StateError{Err: err}
	}
	cfg.Clock.restore(def.clock)
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

// Default is the handle of the default world.
func (s *Server) Default() *World { return s.handle(s.worlds.def) }

// Snapshot returns the whole state of the default world: what GET /__mock/state answers and
// Config.State or LoadState load.
func (s *Server) Snapshot() reference.State { return s.Default().Snapshot() }

// LoadState replaces the default world's records with st (a snapshot); the manifest is
// checked against it (D102). A state that does not load leaves the old world in place.
func (s *Server) LoadState(st reference.State) error { return s.Default().LoadState(st) }

// Reset puts back the default world of seed (the configured seed when 0) and the configured
// scenario, as POST /__mock/reset does: rate windows, the login throttle, fault rules and the
// journal are cleared, and tokens of the old world stop working. The clock is kept.
func (s *Server) Reset(seed int64) error { return s.Default().Reset(seed) }

// Manifest describes the default world: logins and the ids of records to use.
func (s *Server) Manifest() fixtures.Manifest { return s.Default().Manifest() }

// Now is the default world's clock.
func (s *Server) Now() time.Time { return s.Default().Now() }

// Advance moves the default world's clock forward by d (rate windows, snoozes, overdue cards
// follow); it refuses to move past LatestClock (D63).
func (s *Server) Advance(d time.Duration) error { return s.Default().Advance(d) }

// DefaultRateLimit is the number of requests per minute per caller when Config.RateLimit is
// zero (D14).
const DefaultRateLimit = 1000

// handleOpenAPIJSON serves the spec as JSON (the loaded document, marshalled).
func (s *Server) handleOpenAPIJSON(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.doc)
}

// handleOpenAPIYAML serves the spec as embedded, YAML.
func (s *Server) handleOpenAPIYAML(w http.ResponseWriter, _ *http.Request) {
	b := spec.Bytes()
	h := w.Header()
	h.Set("Content-Type", "application/yaml")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// StateError is New's error when Config.State does not load, worded as PUT /__mock/state
// words it, so a command can name the file the snapshot came from.
type StateError struct{ Err error }

func (e *StateError) Error() string {
	return "the snapshot does not load: " + strings.TrimPrefix(e.Err.Error(), "load state: ")
}

func (e *StateError) Unwrap() error { return e.Err }
