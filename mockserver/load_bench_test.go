package mockserver

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// loadConns is the number of concurrent keep-alive connections of the load test.
const loadConns = 32

// bareLoadRate is the bare handler's requests/s in this run, for the comments/list ratio.
var bareLoadRate float64

// BenchmarkLoad sends b.N comments/list requests over loopback from loadConns clients, each on
// its own keep-alive connection, first to the bare handler, then to the mock, and reports
// requests/s, p50 and p99 latency, and the mock's throughput as a fraction of the bare one.
func BenchmarkLoad(b *testing.B) {
	b.Run("bare", func(b *testing.B) {
		m := newBenchMock(b, nil)
		body := mustJSON(b, map[string]any{"card_id": m.manifest.Operations.CardID, "per_page": 15})
		h := bareHandler(m.answer(b, m.request(opsV1+"comments/list", body, true)))
		bareLoadRate = runLoad(b, h, opsV1+"comments/list", body, "")
	})
	b.Run("comments-list", func(b *testing.B) {
		m := newBenchMock(b, nil)
		body := mustJSON(b, map[string]any{"card_id": m.manifest.Operations.CardID, "per_page": 15})
		rate := runLoad(b, m.h, opsV1+"comments/list", body, "Bearer "+m.token)
		if bareLoadRate > 0 && b.N >= 1000 { // the small first rounds are too noisy to judge
			ratio := rate / bareLoadRate
			b.ReportMetric(ratio, "x-bare-throughput")
			checkTarget(b, ratio >= 0.5, "comments/list throughput at %d connections is %.2f× the bare handler's (want ≥ 0.5)", loadConns, ratio)
		}
	})
}

// runLoad serves h on a loopback listener and sends b.N POSTs of body to path from loadConns
// workers, one keep-alive connection each. It reports req/s, p50-µs and p99-µs and returns
// the rate. Any transport error or status other than 200 fails the benchmark.
func runLoad(b *testing.B, h http.Handler, path string, body []byte, auth string) float64 {
	srv := httptest.NewServer(h)
	defer srv.Close()
	var next atomic.Int64
	lat := make([][]time.Duration, loadConns)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for w := range loadConns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1, MaxConnsPerHost: 1}}
			defer client.CloseIdleConnections()
			for next.Add(1) <= int64(b.N) {
				d, err := loadOne(client, srv.URL+path, body, auth)
				if err != nil {
					b.Error(err)
					return
				}
				lat[w] = append(lat[w], d)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	return reportLatencies(b, lat, elapsed)
}

// reportLatencies reports the throughput and the p50 and p99 latencies of the requests timed in
// lat (one list per sender) over elapsed, and returns the throughput (0 when none was timed).
func reportLatencies(b *testing.B, lat [][]time.Duration, elapsed time.Duration) float64 {
	all := slices.Concat(lat...)
	slices.Sort(all)
	if len(all) == 0 {
		return 0
	}
	rate := float64(len(all)) / elapsed.Seconds()
	b.ReportMetric(rate, "req/s")
	b.ReportMetric(float64(all[len(all)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "p99-µs")
	return rate
}

// loadOne sends one request and reads the whole answer, so that the connection is reused.
func loadOne(client *http.Client, url string, body []byte, auth string) (time.Duration, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	t0 := time.Now()
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	d := time.Since(t0)
	if err == nil && res.StatusCode != http.StatusOK {
		err = &statusError{res.StatusCode}
	}
	return d, err
}

type statusError struct{ status int }

func (e *statusError) Error() string { return "status " + http.StatusText(e.status) }
