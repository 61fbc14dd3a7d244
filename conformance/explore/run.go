package explore

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	"pgregory.net/rapid"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/nearmiss"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/fixtures"
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
	// Diff replays every case against Reference as well and reports differences.
	Diff bool
	// Reference is the reference implementation differential mode replays cases against (the
	// caller passes a fresh in-process mock, mockserver.New, so explore does not import it); it
	// must serve the fixture manifest at /_mock/manifest. Required when Diff is set.
	Reference http.Handler
	// ShrinkReplays bounds the replays spent shrinking a failing case (0: 300): past it the
	// shortest failing case found so far is the one reported, whatever the machine's speed.
	// Every replay talks to the target.
	ShrinkReplays int
	// Settle is how long after a create its list may take to show it, and after a push or a
	// sync the copies may take to arrive (0: 20s, the suite's CONFORMANCE_PUSH_WAIT default;
	// negative: no wait).
	Settle time.Duration
	// Log, when set, receives the run's first and last lines.
	Log io.Writer
	// Progress, when set, receives a line every ProgressEvery (0: 10s) while the run lasts: cases
	// done, calls made, failures so far and 429s waited out.
	Progress      io.Writer
	ProgressEvery time.Duration
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
	switch v := getenv(EnvDiff); v {
	case "", "0", "false":
	case "1", "true":
		o.Diff = true
	default: // a run believed differential must not quietly be one that is not
		return o, fmt.Errorf("explore: %s=%q is not 1 or 0", EnvDiff, v)
	}
	return o, nil
}

// Result is what a run found.
type Result struct {
	Seed uint64
	// Asked is the number of cases asked for; Cases those generated and run, up to the one that
	// broke a property; Replays the runs of the failing case while shrinking it.
	Asked, Cases, Replays int
	// FoundAt is the case that first broke a property (0 when none did).
	FoundAt int
	Calls   int // HTTP calls to the target
	Waits   int // 429 answers waited out (Retry-After)
	Elapsed time.Duration
	// Failure is the first property broken, its case shrunk; nil when every case passed.
	Failure *Failure
	// Diffs are the contract-level outcomes where the target and the reference differ
	// (differential mode), one line each, deduplicated.
	Diffs []string
}

// Failure is a broken property and the shortest case that breaks it.
type Failure struct {
	Rule   rules.ID
	Reason string
	// Detail is what was seen, the deployment's answer among it: text it chose, so never
	// searched for anything of ours.
	Detail string
	// Check is the Go assertion of the property the case broke, for GoSpec: the suite's own,
	// kept apart from Detail (a deployment's answer holding "\nGo: " once wrote its own line
	// into the spec to paste).
	Check string
	// ShCheck is the script's judgment of the same property (Script); "" where a few lines of
	// shell cannot state it.
	ShCheck string
	Seed    uint64
	// Calls are the HTTP calls of the shrunk case, in order.
	Calls []Call
	// Rapid is rapid's own report (its seed of the failing case and how to reproduce it).
	Rapid string
	// Broke is the operation whose answer broke the property when it is not the last call's
	// (LIST-1: the create a list read back).
	Broke string
}

// Op is the operation whose answer broke the property: Broke, else the shrunk case's last
// call's ("" for a case of no call).
func (f *Failure) Op() string {
	if f.Broke != "" {
		return f.Broke
	}
	if len(f.Calls) == 0 {
		return ""
	}
	return f.Calls[len(f.Calls)-1].Op.ID
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
	// Auth, when set, is the wrong form the caller's token was sent in.
	Auth *nearmiss.AuthForm
	// Count, when set, is the path whose count the model read (data.cards, or
	// data.pagination.total for a number).
	Count string
	// Settle marks a valid request naming a record the case created a moment before: a
	// deployment may find it only once a replica has it, so a reproduction sends it again
	// while it is answered 404 or 422, for up to the settle time (ERR-8), as the run did.
	Settle bool
}

// shrinkTimeout is rapid's own bound on shrinking; ShrinkReplays ends it long before, as
// replays past the bound fail at once without a call.
const shrinkTimeout = 10 * time.Minute

// mu serialises runs: rapid's settings are process-wide flags.
var mu sync.Mutex

// Run runs opts.Cases generated cases against the deployment c talks to, whose fixture manifest
// is m. The error is a setup failure (no login, no reference); broken properties are in
// Result.Failure.
func Run(ctx context.Context, c *conformance.Client, m fixtures.Manifest, opts Options) (Result, error) {
	mu.Lock()
	defer mu.Unlock()
	res := Result{Seed: opts.Seed, Asked: max(opts.Cases, 0)}
	if res.Seed == 0 {
		res.Seed = rand.Uint64N(1<<53) + 1
	}
	if opts.Cases <= 0 {
		return res, nil
	}
	if opts.Steps <= 0 {
		opts.Steps = 8
	}
	if opts.ShrinkReplays <= 0 {
		opts.ShrinkReplays = 300
	}
	switch {
	case opts.Settle == 0:
		opts.Settle = check.ListSettle
	case opts.Settle < 0:
		opts.Settle = 0
	}
	schemas := loadSchemas()
	target, err := newEnv(ctx, "target", c, m)
	if err != nil {
		return res, err
	}
	r := &runner{ctx: ctx, schemas: schemas, target: target, shrinkReplays: opts.ShrinkReplays, settle: opts.Settle}
	if opts.Diff {
		ref, stop, err := startReference(ctx, opts.Reference)
		if err != nil {
			return res, err
		}
		defer stop()
		r.ref = ref
	}
	for name, v := range map[string]string{
		"rapid.checks": strconv.Itoa(opts.Cases), "rapid.seed": strconv.FormatUint(res.Seed, 10),
		"rapid.steps": strconv.Itoa(opts.Steps), "rapid.nofailfile": "true", "rapid.shrinktime": shrinkTimeout.String(),
	} {
		if err := flag.Set(name, v); err != nil {
			return res, fmt.Errorf("explore: set %s: %w", name, err)
		}
	}
	if opts.Log != nil {
		fmt.Fprintf(opts.Log, "explore: %d cases of about %d steps, seed %d (%s=%d reproduces the run)\n", opts.Cases, opts.Steps, res.Seed, EnvSeed, res.Seed)
	}
	start := time.Now()
	stopProgress := r.progress(opts, start)
	tb := &recorder{name: "explore"}
	rapid.Check(tb, r.property)
	stopProgress()
	res.Elapsed = time.Since(start)
	res.Cases, res.Calls, res.Waits = int(r.cases.Load()), int(r.calls.Load()), int(r.waits.Load())
	if res.FoundAt = int(r.foundAt.Load()); res.FoundAt > 0 {
		res.Cases, res.Replays = res.FoundAt, res.Cases-res.FoundAt
	}
	res.Cases = min(res.Cases, res.Asked) // cases rapid drew again after an invalid draw are not extra cases
	res.Diffs = r.diffs
	if r.unanswered != nil && r.failure == nil {
		return res, fmt.Errorf("explore: %w", r.unanswered)
	}
	if tb.failed {
		if r.failure == nil {
			return res, fmt.Errorf("explore: rapid failed without a property: %s", tb.out.String())
		}
		r.failure.Seed = res.Seed
		r.failure.Rapid = tb.out.String()
		if res.Replays > opts.ShrinkReplays {
			// rapid calls the last replays flaky: they failed at once, without a call, so they
			// are not counted as replays.
			r.failure.Rapid = fmt.Sprintf("[rapid] shrinking stopped after %d replays; the case above is the shortest failing one replayed\n", opts.ShrinkReplays)
			res.Replays = opts.ShrinkReplays
		}
		res.Failure = r.failure
	}
	if opts.Log != nil { // once the replays past the bound are taken off: the report's figure
		fmt.Fprintf(opts.Log, "explore: %s\n", res.Counts())
	}
	return res, nil
}

// startReference serves the reference in process for differential mode.
func startReference(ctx context.Context, ref http.Handler) (*env, func(), error) {
	if ref == nil {
		return nil, nil, errors.New("explore: differential mode needs Options.Reference")
	}
	hs := httptest.NewServer(ref)
	cfg := conformance.Config{Timeout: 30 * time.Second}
	c, err := conformance.NewClient(ctx, hs.URL, cfg)
	if err != nil {
		hs.Close()
		return nil, nil, err
	}
	m, err := cfg.LoadManifest(ctx, hs.URL)
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

// Counts says how much a run did, in one line: cases run of those asked, replays of a failing
// case, calls, waits for Retry-After and time taken.
func (res Result) Counts() string {
	s := fmt.Sprintf("%d of %d cases", res.Cases, res.Asked)
	if res.FoundAt > 0 {
		s += fmt.Sprintf(" (case %d broke a property; %d replays shrank it)", res.FoundAt, res.Replays)
	}
	return s + fmt.Sprintf(", %d calls, %d waits for Retry-After, in %s", res.Calls, res.Waits, res.Elapsed.Round(time.Millisecond))
}

// progress prints a line every opts.ProgressEvery to opts.Progress until the returned stop is
// called: a long run is never silent.
func (r *runner) progress(opts Options, start time.Time) (stop func()) {
	if opts.Progress == nil {
		return func() {}
	}
	every := opts.ProgressEvery
	if every <= 0 {
		every = 10 * time.Second
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				failures, cases := 0, r.cases.Load()
				state := ""
				if at := r.foundAt.Load(); at > 0 {
					failures, cases, state = 1, at, " (shrinking the failing case)"
				}
				fmt.Fprintf(opts.Progress, "explore: %d of %d cases, %d calls, %d failures so far, %d waits for Retry-After, %s elapsed%s\n",
					min(cases, int64(opts.Cases)), opts.Cases, r.calls.Load(), failures, r.waits.Load(), time.Since(start).Round(time.Second), state)
			}
		}
	}()
	return func() { close(done); <-finished }
}
