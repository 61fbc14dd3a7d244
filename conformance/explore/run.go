package explore

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	"pgregory.net/rapid"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// The environment variables of explore mode.
const (
	// EnvCases turns explore mode on: the number of generated cases to run.
	EnvCases = "CONFORMANCE_EXPLORE"
	// EnvSeed makes a run reproducible; unset, a seed is drawn and printed.
	EnvSeed = "CONFORMANCE_EXPLORE_SEED"
	// EnvDiff, set to 1, replays every case against the in-process reference mock as well.
	EnvDiff = "CONFORMANCE_EXPLORE_DIFF"
	// EnvSteps is the average number of steps of a case (default 8).
	EnvSteps = "CONFORMANCE_EXPLORE_STEPS"
)

// Options configure a run.
type Options struct {
	// Cases is the number of generated cases (rapid checks); each is a sequence of steps.
	Cases int
	// Seed makes the run reproducible (0: draw one).
	Seed uint64
	// Steps is the average number of steps of a case (0: 8).
	Steps int
	// Diff replays every case against the in-process reference mock and reports differences.
	Diff bool
	// ShrinkTime bounds the time spent shrinking a failing case (0: 30s). Every replay of a case
	// talks to the target, so a target with long lists shrinks slowly.
	ShrinkTime time.Duration
	// Log, when set, receives progress lines.
	Log io.Writer
}

// OptionsFromEnv reads explore mode's variables through getenv. Cases is 0 when explore mode is
// off.
func OptionsFromEnv(getenv func(string) string) (Options, error) {
	var o Options
	if v := getenv(EnvCases); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return o, fmt.Errorf("explore: %s=%q is not a number of cases", EnvCases, v)
		}
		o.Cases = n
	}
	if v := getenv(EnvSeed); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n == 0 {
			return o, fmt.Errorf("explore: %s=%q is not a positive integer", EnvSeed, v)
		}
		o.Seed = n
	}
	if v := getenv(EnvSteps); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return o, fmt.Errorf("explore: %s=%q is not a positive integer", EnvSteps, v)
		}
		o.Steps = n
	}
	o.Diff = getenv(EnvDiff) == "1"
	return o, nil
}

// Result is what a run found.
type Result struct {
	Seed  uint64
	Cases int // cases run, shrinking replays included
	// FoundAt is the case that first broke a property (0 when none did).
	FoundAt int
	Calls   int // HTTP calls to the target
	Elapsed time.Duration
	// Failure is the first property broken, its case shrunk; nil when every case passed.
	Failure *Failure
	// Diffs are the contract-level outcomes where the target and the reference differ
	// (differential mode), one line each, deduplicated.
	Diffs []string
}

// Failure is a broken property and the shortest case that breaks it.
type Failure struct {
	Rule   string
	Reason string
	Detail string
	Seed   uint64
	// Calls are the HTTP calls of the shrunk case, in order.
	Calls []Call
	// Rapid is rapid's own report (its seed of the failing case and how to reproduce it).
	Rapid string
}

// Call is one HTTP call of a case, as reproductions show it.
type Call struct {
	Op     conformance.Operation
	As     role
	Body   map[string]any // IDs and secrets in place of values
	Raw    string         // the JSON sent
	Status int
	// Var names the id the answer created, read at VarPath (card1 at data.card.id).
	Var, VarPath string
	// Invalid marks a body that breaks a field rule on purpose.
	Invalid bool
	// Count, when set, is the path whose count the model read (data.cards, or
	// data.pagination.total for a number).
	Count string
}

// mu serialises runs: rapid's settings are process-wide flags.
var mu sync.Mutex

// Run runs opts.Cases generated cases against the deployment c talks to, whose fixture manifest
// is m. The error is a setup failure (no login, no reference); broken properties are in
// Result.Failure.
func Run(ctx context.Context, c *conformance.Client, m fixtures.Manifest, opts Options) (Result, error) {
	mu.Lock()
	defer mu.Unlock()
	res := Result{Seed: opts.Seed}
	if res.Seed == 0 {
		res.Seed = rand.Uint64N(1<<53) + 1
	}
	if opts.Cases <= 0 {
		return res, nil
	}
	if opts.Steps <= 0 {
		opts.Steps = 8
	}
	if opts.ShrinkTime <= 0 {
		opts.ShrinkTime = 30 * time.Second
	}
	schemas, err := loadSchemas(ctx)
	if err != nil {
		return res, err
	}
	target, err := newEnv(ctx, "target", c, m)
	if err != nil {
		return res, err
	}
	r := &runner{ctx: ctx, schemas: schemas, target: target}
	if opts.Diff {
		ref, stop, err := startReference(ctx)
		if err != nil {
			return res, err
		}
		defer stop()
		r.ref = ref
	}
	for name, v := range map[string]string{
		"rapid.checks": strconv.Itoa(opts.Cases), "rapid.seed": strconv.FormatUint(res.Seed, 10),
		"rapid.steps": strconv.Itoa(opts.Steps), "rapid.nofailfile": "true", "rapid.shrinktime": opts.ShrinkTime.String(),
	} {
		if err := flag.Set(name, v); err != nil {
			return res, fmt.Errorf("explore: set %s: %w", name, err)
		}
	}
	if opts.Log != nil {
		fmt.Fprintf(opts.Log, "explore: %d cases of about %d steps, seed %d (%s=%d reproduces the run)\n", opts.Cases, opts.Steps, res.Seed, EnvSeed, res.Seed)
	}
	start := time.Now()
	tb := &recorder{name: "explore"}
	rapid.Check(tb, r.property)
	res.Elapsed = time.Since(start)
	res.Cases, res.Calls, res.FoundAt = r.cases, r.calls, r.foundAt
	res.Diffs = r.diffs
	if opts.Log != nil {
		fmt.Fprintf(opts.Log, "explore: %d cases, %d calls in %s\n", res.Cases, res.Calls, res.Elapsed.Round(time.Millisecond))
	}
	if tb.failed {
		if r.failure == nil {
			return res, fmt.Errorf("explore: rapid failed without a property: %s", tb.out.String())
		}
		r.failure.Seed = res.Seed
		r.failure.Rapid = tb.out.String()
		res.Failure = r.failure
	}
	return res, nil
}

// startReference serves a fresh reference mock in process for differential mode.
func startReference(ctx context.Context) (*env, func(), error) {
	srv, err := mockserver.New(mockserver.Config{RateLimit: 1 << 30})
	if err != nil {
		return nil, nil, fmt.Errorf("explore: start the reference: %w", err)
	}
	hs := httptest.NewServer(srv)
	cfg := conformance.Config{Timeout: 30 * time.Second}
	c, err := conformance.NewClient(ctx, hs.URL, cfg)
	if err != nil {
		hs.Close()
		return nil, nil, err
	}
	m, err := conformance.LoadManifest(ctx, cfg, hs.URL)
	if err != nil {
		hs.Close()
		return nil, nil, err
	}
	e, err := newEnv(ctx, "reference", c, m.Manifest)
	if err != nil {
		hs.Close()
		return nil, nil, err
	}
	return e, hs.Close, nil
}

// recorder is the rapid.TB of a run: it keeps rapid's report instead of failing a test.
type recorder struct {
	name   string
	out    strings.Builder
	failed bool
}

func (r *recorder) Helper()                           {}
func (r *recorder) Name() string                      { return r.name }
func (r *recorder) Logf(format string, args ...any)   { fmt.Fprintf(&r.out, format+"\n", args...) }
func (r *recorder) Log(args ...any)                   { fmt.Fprintln(&r.out, args...) }
func (r *recorder) Skipf(format string, args ...any)  { r.Logf(format, args...) }
func (r *recorder) Skip(args ...any)                  { r.Log(args...) }
func (r *recorder) SkipNow()                          {}
func (r *recorder) Errorf(format string, args ...any) { r.failed = true; r.Logf(format, args...) }
func (r *recorder) Error(args ...any)                 { r.failed = true; r.Log(args...) }
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }
func (r *recorder) Fatal(args ...any)                 { r.Error(args...) }
func (r *recorder) FailNow()                          { r.failed = true }
func (r *recorder) Fail()                             { r.failed = true }
func (r *recorder) Failed() bool                      { return r.failed }

// errSkip marks a step that cannot run in an environment (an empty pool).
var errSkip = errors.New("no record to act on")
