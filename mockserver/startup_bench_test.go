package mockserver

import (
	"bufio"
	"context"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// BenchmarkStartInProcess measures New with the default fixtures and its first served request.
func BenchmarkStartInProcess(b *testing.B) {
	for range b.N {
		h, err := New(Config{Now: benchNow})
		if err != nil {
			b.Fatal(err)
		}
		rec := newDiscard()
		r, _ := http.NewRequest(http.MethodGet, "/healthz", nil)
		h.ServeHTTP(rec, r)
		if rec.status != http.StatusOK {
			b.Fatalf("healthz: %d", rec.status)
		}
	}
	ms := float64(b.Elapsed().Microseconds()) / 1000 / float64(b.N)
	checkTarget(b, ms < 100, "in process, start to first served request takes %.1f ms (want < 100)", ms)
}

// BenchmarkBinary builds cmd/mockserver, starts it with the default fixtures and polls
// /healthz: each iteration is one start to first served request (ms-to-ready). After the last
// one it lets the process idle for a second and reports its resident memory (idle-RSS-MB)
// from /proc.
func BenchmarkBinary(b *testing.B) {
	bin := buildBinary(b)
	var total time.Duration
	var rss float64
	b.ResetTimer()
	for i := range b.N {
		d, kb := startBinary(b, bin, i == b.N-1)
		total += d
		rss = kb / 1024
	}
	ms := float64(total.Microseconds()) / 1000 / float64(b.N)
	b.ReportMetric(ms, "ms-to-ready")
	b.ReportMetric(rss, "idle-RSS-MB")
	checkTarget(b, ms < 100, "the binary serves its first request %.1f ms after start (want < 100)", ms)
	checkTarget(b, rss < 40, "the idle binary holds %.1f MB resident (want < 40)", rss)
}

// startBinary starts bin on a free loopback port, waits for /healthz to answer 200 and
// returns how long that took; with idle, the VmRSS in kB after a second of idling.
func startBinary(b *testing.B, bin string, idle bool) (time.Duration, float64) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--addr", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n') // "mockserver listening on http://ADDR ..."
	if err != nil {
		b.Fatalf("read the address: %v", err)
	}
	url := strings.Fields(line[strings.Index(line, "http://"):])[0]
	for {
		res, err := http.Get(url + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Since(start) > 10*time.Second {
			b.Fatalf("not ready after 10 s: %v", err)
		}
		time.Sleep(time.Millisecond)
	}
	ready := time.Since(start)
	if !idle {
		return ready, 0
	}
	b.StopTimer()
	defer b.StartTimer()
	time.Sleep(time.Second)
	return ready, procStatus(b, cmd.Process.Pid, "VmRSS:")
}
