package conformance

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"sync"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
)

// The suite runs its specs in parallel without the ginkgo CLI (D160): the binary starts itself
// as N Ginkgo parallel processes (RunParallel) and serves them what the CLI would, the
// coordination protocol of Ginkgo's parallel support (its HTTP form, chosen by
// GINKGO_PARALLEL_PROTOCOL=HTTP). Process 1 runs SynchronizedBeforeSuite's first function, the
// Serial specs once the others are done, and the ReportAfterSuite nodes over every process's
// report, so the JUnit, JSON and HTML reports are written once and whole. This server forwards
// every spec's report to Ginkgo's default reporter, so the console shows one run.

// beforeSuiteState is what process 1's SynchronizedBeforeSuite hands the other processes.
type beforeSuiteState struct {
	Data  []byte
	State types.SpecState
}

// parallelServer keeps the shared state of one parallel run.
type parallelServer struct {
	total    int
	reporter reporters.Reporter
	out      io.Writer
	alive    func(proc int) bool

	mu                sync.Mutex
	begins, ends      int
	ended             []bool
	held              []types.SpecReport // spec reports that came before every process began
	report            types.Report       // every report of the processes that ended, added up
	beforeSuite       beforeSuiteState
	reportBeforeSuite types.SpecState
	counter           int
	abort             bool
	done              chan struct{}
	logins            loginTable // the processes' login leases (logins.go)
}

func newParallelServer(total int, reporter reporters.Reporter, out io.Writer, alive func(int) bool) *parallelServer {
	return &parallelServer{total: total, reporter: reporter, out: out, alive: alive,
		ended: make([]bool, total), beforeSuite: beforeSuiteState{State: types.SpecStateInvalid},
		done: make(chan struct{})}
}

// statusEarly and statusGone are the protocol's answers to a process that asks too soon, or for the
// work of a process that is gone.
const (
	statusEarly = http.StatusTooEarly
	statusGone  = http.StatusGone
)

func (s *parallelServer) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/up", func(http.ResponseWriter, *http.Request) {})
	mux.HandleFunc("/suite-will-begin", decoded(s.suiteWillBegin))
	mux.HandleFunc("/did-run", decoded(s.didRun))
	mux.HandleFunc("/suite-did-end", decoded(s.suiteDidEnd))
	mux.HandleFunc("/progress-report", decoded(func(r types.ProgressReport) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.reporter.EmitProgressReport(r)
	}))
	mux.HandleFunc("/emit-output", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		defer s.mu.Unlock()
		_, _ = s.out.Write(b)
	})
	mux.HandleFunc("/report-before-suite-completed", decoded(func(st types.SpecState) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.reportBeforeSuite = st
	}))
	mux.HandleFunc("/report-before-suite-state", s.fromProc1(func() (any, bool) {
		return s.reportBeforeSuite, s.reportBeforeSuite != types.SpecStateInvalid
	}))
	mux.HandleFunc("/before-suite-completed", decoded(func(st beforeSuiteState) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.beforeSuite = st
	}))
	mux.HandleFunc("/before-suite-state", s.fromProc1(func() (any, bool) {
		return s.beforeSuite, s.beforeSuite.State != types.SpecStateInvalid
	}))
	mux.HandleFunc("/have-nonprimary-procs-finished", func(w http.ResponseWriter, _ *http.Request) {
		if !s.othersFinished() {
			w.WriteHeader(statusEarly)
		}
	})
	mux.HandleFunc("/aggregated-nonprimary-procs-report", s.othersReport)
	mux.HandleFunc("/counter", func(w http.ResponseWriter, _ *http.Request) {
		s.mu.Lock()
		n := s.counter
		s.counter++
		s.mu.Unlock()
		_ = json.NewEncoder(w).Encode(struct{ Index int }{n})
	})
	mux.HandleFunc("/conformance/login-lease", s.logins.serveLease)
	mux.HandleFunc("/conformance/login-release", s.logins.serveRelease)
	mux.HandleFunc("/abort", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if r.Method != http.MethodGet {
			s.abort = true
		} else if s.abort {
			w.WriteHeader(statusGone)
		}
	})
	return mux
}

// decoded adapts f to a handler of a POST whose body is a JSON T.
func decoded[T any](f func(T)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var v T
		if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		f(v)
	}
}

// fromProc1 answers with what state returns once ready says process 1 set it: too early while
// process 1 lives, gone once it died without setting it.
func (s *parallelServer) fromProc1(state func() (any, bool)) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		alive := s.alive(1)
		s.mu.Lock()
		v, ready := state()
		s.mu.Unlock()
		switch {
		case ready:
			_ = json.NewEncoder(w).Encode(v)
		case alive:
			w.WriteHeader(statusEarly)
		default:
			w.WriteHeader(statusGone)
		}
	}
}

func (s *parallelServer) suiteWillBegin(r types.Report) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.begins++
	if s.begins != s.total {
		return
	}
	// Every process sends the same start; the console shows it once, then what was held.
	s.reporter.SuiteWillBegin(r)
	for _, sr := range s.held {
		s.reporter.WillRun(sr)
		s.reporter.DidRun(sr)
	}
	s.held = nil
}

func (s *parallelServer) didRun(sr types.SpecReport) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.begins != s.total {
		s.held = append(s.held, sr)
		return
	}
	s.reporter.WillRun(sr)
	s.reporter.DidRun(sr)
}

func (s *parallelServer) suiteDidEnd(r types.Report) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ends++
	if p := r.SuiteConfig.ParallelProcess; p >= 1 && p <= s.total {
		s.ended[p-1] = true
	}
	if s.ends == 1 {
		s.report = r
	} else {
		s.report = s.report.Add(r)
	}
	if s.ends == s.total {
		s.reporter.SuiteDidEnd(s.report)
		close(s.done)
	}
}

// othersFinished reports whether every process but the first ended or died.
func (s *parallelServer) othersFinished() bool {
	for p := 2; p <= s.total; p++ {
		s.mu.Lock()
		ended := s.ended[p-1]
		s.mu.Unlock()
		if !ended && s.alive(p) {
			return false
		}
	}
	return true
}

func (s *parallelServer) othersReport(w http.ResponseWriter, _ *http.Request) {
	if !s.othersFinished() {
		w.WriteHeader(statusEarly)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ends != s.total-1 {
		w.WriteHeader(statusGone) // a process died without its report
		return
	}
	_ = json.NewEncoder(w).Encode(s.report)
}

// reported reports whether process p sent the report of its end.
func (s *parallelServer) reported(p int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ended[p-1]
}

// Report returns the reports of every process added up (complete once every process ended).
func (s *parallelServer) Report() (types.Report, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.report, s.ends == s.total
}

// listen serves the protocol on a loopback port and returns the address the processes are given.
func (s *parallelServer) listen() (host string, stop func(), err error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: s.handler()}
	go func() { _ = srv.Serve(l) }()
	return "http://" + l.Addr().String(), func() { _ = srv.Close() }, nil
}
