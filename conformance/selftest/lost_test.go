package selftest_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/internal/fulltest"
)

// TestLostProcessMarksEveryReport kills one process of a parallel run, as a crash or the
// kernel's OOM killer would, and holds every report file to saying the run was interrupted,
// in text a CI page shows as it is (no terminal escapes), not only the console.
func TestLostProcessMarksEveryReport(t *testing.T) {
	fulltest.Require(t, "a parallel run that loses a process")
	var (
		base  string
		seen  atomic.Int64
		once  sync.Once
		found = make(chan int, 1)
	)
	base = startMock(t, func(h httpHandler) httpHandler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(10 * time.Millisecond) // every process still has specs to run when one is killed
			if seen.Add(1) == 40 {
				once.Do(func() { found <- killProcess(t, base, 2) })
			}
			h.ServeHTTP(w, r)
		})
	})
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// Colour stays on, as a console run has it: the report files must not carry it.
	cmd := exec.CommandContext(ctx, suiteBinary, "-ginkgo.label-filter=op:cardsCreate")
	cmd.Env = append(os.Environ(), "CONFORMANCE_BASE_URL="+base, "CONFORMANCE_PROFILE=", "CONFORMANCE_PARALLEL=2", "CONFORMANCE_REPORTS="+dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err == nil {
		t.Fatalf("a run that lost a process passed:\n%s", tail(out.String(), 3000))
	}
	select {
	case pid := <-found:
		if pid == 0 {
			t.Fatalf("process 2 of the run was not found to kill:\n%s", tail(out.String(), 3000))
		}
	default:
		t.Fatalf("the run sent fewer than 40 requests:\n%s", tail(out.String(), 3000))
	}
	for name, want := range map[string]string{
		"junit.xml":        "a parallel process ended before reporting",
		"conformance.json": "a parallel process ended before reporting",
		"summary.txt":      "INTERRUPTED",
		"conformance.html": "INTERRUPTED",
	} {
		raw, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.Contains(raw, []byte(want)) {
			t.Errorf("%s does not say %q", name, want)
		}
		// Raw, JSON-escaped, or as XML writes a character it cannot hold (U+FFFD).
		if bytes.Contains(raw, []byte("\x1b[")) || bytes.Contains(raw, []byte(`\u001b[`)) || bytes.Contains(raw, []byte("\uFFFD[")) {
			t.Errorf("%s carries terminal escapes", name)
		}
	}
}

// killProcess kills, with SIGKILL, parallel process n of the suite run that tests base (its
// environment names base), and returns its pid (0: none found).
func killProcess(t *testing.T, base string, n int) int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		environ, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if !strings.Contains(string(cmdline), "-ginkgo.parallel.process="+strconv.Itoa(n)+"\x00") ||
			!bytes.Contains(environ, []byte("CONFORMANCE_BASE_URL="+base+"\x00")) {
			continue
		}
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Logf("kill %d: %v", pid, err)
			return 0
		}
		return pid
	}
	return 0
}
