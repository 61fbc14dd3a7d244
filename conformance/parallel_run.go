package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/onsi/ginkgo/v2/formatter"
	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
)

// ParallelRun describes one run of the suite binary as several Ginkgo parallel processes.
type ParallelRun struct {
	// Procs is the number of processes (EnvParallel).
	Procs int
	// Binary is the suite binary (os.Args[0]); Args its arguments (os.Args[1:]), given to every
	// process with the parallel flags added.
	Binary string
	Args   []string
	// Seed is the run's random seed, given to every process: each process orders the specs by
	// it and runs the ones the coordinator hands out by their place in that order, so processes
	// that chose their own seeds (Ginkgo's default is the second a process starts) would run
	// some specs twice and others never.
	Seed int64
	// Test, when set, is the one test function the processes run (-test.run=^Test$): the
	// binary's other tests ran in this process already.
	Test string
	// Reporter configures the console output of the run (GinkgoConfiguration's).
	Reporter types.ReporterConfig
	// Stdout receives the console output; Stderr the output of a process that ended without
	// reporting (nil: os.Stdout, os.Stderr).
	Stdout, Stderr io.Writer
}

// Run starts the processes, coordinates them until every one ended and returns the report of
// the whole run and whether every process passed. The processes write the reports themselves
// (process 1, over every process's specs).
func (p ParallelRun) Run(ctx context.Context) (types.Report, bool, error) {
	if p.Procs < 2 {
		return types.Report{}, false, fmt.Errorf("parallel run: %d processes", p.Procs)
	}
	stdout, stderr := p.Stdout, p.Stderr
	if stdout == nil {
		stdout = formatter.ColorableStdOut
	}
	if stderr == nil {
		stderr = os.Stderr
	}
	procs := make([]*proc, p.Procs)
	for i := range procs {
		procs[i] = &proc{}
	}
	alive := func(n int) bool { return !procs[n-1].exited.Load() }
	srv := newParallelServer(p.Procs, reporters.NewDefaultReporter(p.Reporter, stdout), stdout, alive)
	host, stop, err := srv.listen()
	if err != nil {
		return types.Report{}, false, fmt.Errorf("parallel run: %w", err)
	}
	defer stop()
	var wg sync.WaitGroup
	for n := 1; n <= p.Procs; n++ {
		pr := procs[n-1]
		if err := p.start(ctx, pr, n, host); err != nil {
			for _, started := range procs[:n-1] {
				_ = started.cmd.Process.Kill()
			}
			wg.Wait()
			return types.Report{}, false, err
		}
		wg.Add(1)
		go func() { defer wg.Done(); pr.wait() }()
	}
	forwardSignals(procs, &wg)
	passed, lost := true, false
	for _, pr := range procs {
		passed = passed && pr.passed
	}
	select {
	case <-srv.done:
	case <-time.After(2 * time.Second):
		// A process ended without its report (a crash, a kill): its own output says why.
		passed, lost = false, true
		for n, pr := range procs {
			if !srv.reported(n + 1) {
				fmt.Fprintf(stderr, "conformance: parallel process %d of %d ended (%s) before reporting; its output:\n%s\n", n+1, p.Procs, pr.state, pr.out.String())
			}
		}
	}
	report, _ := srv.Report()
	if lost { // the reports say so, and count the specs never heard of (D160)
		report.SpecialSuiteFailureReasons = append(report.SpecialSuiteFailureReasons, lostProcessReason)
	}
	if twice := ranTwice(report); len(twice) > 0 {
		passed = false
		fmt.Fprintf(stderr, "conformance: the parallel processes ran %d specs more than once (they disagreed on the specs' order), so others may not have run; the run is not a verdict. First: %s\n", len(twice), twice[0])
	}
	return report, passed, nil
}

// lostProcessReason is the special failure reason of a parallel run's merged report when a
// process ended before reporting: the run reads as interrupted.
const lostProcessReason = "Interrupted: a parallel process ended before reporting"

// ranTwice names the specs the report holds more than once.
func ranTwice(r types.Report) []string {
	seen := map[string]bool{}
	var twice []string
	for _, sr := range r.SpecReports {
		if sr.LeafNodeType != types.NodeTypeIt {
			continue
		}
		name := sr.FullText() + " (" + sr.LeafNodeLocation.String() + ")"
		if seen[name] {
			twice = append(twice, name)
		}
		seen[name] = true
	}
	return twice
}

// forwardSignals waits for the processes to end. An interrupt or a termination meanwhile is
// passed on to them instead of ending this process first, so they stop as Ginkgo does on an
// interrupt (the specs that ran are reported, the reports written) and none is left behind.
func forwardSignals(procs []*proc, wg *sync.WaitGroup) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for {
		select {
		case <-done:
			return
		case sig := <-sigs:
			for _, pr := range procs {
				if !pr.exited.Load() {
					_ = pr.cmd.Process.Signal(sig)
				}
			}
		}
	}
}

// proc is one process of the run.
type proc struct {
	cmd    *exec.Cmd
	out    bytes.Buffer
	exited atomic.Bool
	passed bool
	state  string
}

func (p ParallelRun) start(ctx context.Context, pr *proc, n int, host string) error {
	args := p.processArgs(n, host)
	pr.cmd = exec.CommandContext(ctx, p.Binary, args...)
	pr.cmd.Env = append(os.Environ(), "GINKGO_PARALLEL_PROTOCOL=HTTP")
	pr.cmd.Stdout, pr.cmd.Stderr = &pr.out, &pr.out
	if err := pr.cmd.Start(); err != nil {
		return fmt.Errorf("parallel run: start process %d: %w", n, err)
	}
	return nil
}

// processArgs are the arguments of process n: the run's own, with the parallel flags, the
// run's seed and (with Test) the one test function in place of any the run was given.
func (p ParallelRun) processArgs(n int, host string) []string {
	args := make([]string, 0, len(p.Args)+5)
	for i := 0; i < len(p.Args); i++ {
		a := p.Args[i]
		flag := strings.TrimLeft(a, "-")
		if flag == "ginkgo.seed" {
			i++ // its value is the next argument
			continue
		}
		if strings.HasPrefix(flag, "ginkgo.parallel.") || strings.HasPrefix(flag, "ginkgo.seed=") || (p.Test != "" && strings.HasPrefix(flag, "test.run=")) {
			continue
		}
		args = append(args, a)
	}
	if p.Test != "" {
		args = append(args, "-test.run=^"+p.Test+"$")
	}
	return append(args, fmt.Sprintf("-ginkgo.seed=%d", p.Seed), fmt.Sprintf("-ginkgo.parallel.process=%d", n),
		fmt.Sprintf("-ginkgo.parallel.total=%d", p.Procs), "-ginkgo.parallel.host="+host)
}

func (pr *proc) wait() {
	err := pr.cmd.Wait()
	var exit *exec.ExitError
	pr.passed = err == nil || (errors.As(err, &exit) && exit.ExitCode() == types.GINKGO_FOCUS_EXIT_CODE)
	pr.state = pr.cmd.ProcessState.String()
	pr.exited.Store(true)
}
