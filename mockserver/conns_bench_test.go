package mockserver

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// BenchmarkIdleConnectionsRSS builds cmd/mockserver, opens 6000 keep-alive connections to it,
// each sending one request and then idling, three times the binary's bound on connections
// (D220), and reports the process's peak resident memory (goal: under 120 MB) and whether a
// new client is still served. Without the bound 10 000 such connections held 220 MB, and as
// many as the process may open kept every other client out. Run it with -benchtime=1x.
func BenchmarkIdleConnectionsRSS(b *testing.B) {
	bin := buildBinary(b)
	var peak float64
	for range b.N {
		peak = holdIdleConnections(b, bin, 6000)
	}
	b.ReportMetric(peak, "peak-RSS-MB")
	checkTarget(b, peak < 120, "6000 idle keep-alive connections: %.0f MB peak resident (want < 120)", peak)
}

// holdIdleConnections starts bin, opens n idle keep-alive connections, checks that a new
// client is served, and returns the peak RSS in MB.
func holdIdleConnections(b *testing.B, bin string, n int) float64 {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	base, cmd, stop := serveBinary(ctx, b, bin, []string{"GOGC="})
	defer stop()
	host := strings.TrimPrefix(base, "http://")
	for range n {
		c, err := net.Dial("tcp", host)
		if err != nil {
			b.Fatalf("dial: %v", err)
		}
		defer c.Close()
		fmt.Fprintf(c, "GET /__mock/clock HTTP/1.1\r\nHost: %s\r\n\r\n", host)
		if res, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
			res.Body.Close()
		}
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	res, err := client.Get(base + "/__mock/clock")
	if err != nil || res.StatusCode != http.StatusOK {
		b.Fatalf("a new client among %d idle connections: %v %v, want 200", n, res, err)
	}
	res.Body.Close()
	return procStatus(b, cmd.Process.Pid, "VmHWM:") / 1024
}
