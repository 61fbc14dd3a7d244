package mockserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
)

// busyWorlds is the number of named worlds BenchmarkWorlds keeps busy (the default --max-worlds).
const busyWorlds = 64

// BenchmarkWorlds starts the built binary once per GOGC value (and once with GOMEMLIMIT) and keeps 64 named worlds busy,
// one keep-alive client per world: half comments/list (a page of 15), a quarter comments/create,
// a quarter cards/create, b.N requests in all (-benchtime 20000x). It reports the throughput,
// p50 and p99 latency, and the process's resident memory at the end (RSS-MB) and at its peak
// (peak-RSS-MB, VmHWM): the figures GOGC is chosen by (cmd/mockserver/gc.go, docs/performance.md).
func BenchmarkWorlds(b *testing.B) {
	bin := buildBinary(b)
	// GOMEMLIMIT=off keeps the binary's own soft limit out of the GOGC rows; "defaults" sets
	// neither, so the binary's own choice applies (cmd/mockserver/gc.go).
	for _, row := range []struct{ name, gogc, limit string }{
		{"GOGC=100", "100", "off"}, {"GOGC=200", "200", "off"}, {"GOGC=400", "400", "off"}, {"GOGC=800", "800", "off"},
		{"GOGC=400,GOMEMLIMIT=128MiB", "400", "128MiB"}, {"defaults", "", ""},
	} {
		b.Run(row.name, func(b *testing.B) { runWorlds(b, bin, []string{"GOGC=" + row.gogc, "GOMEMLIMIT=" + row.limit}) })
	}
}

// runWorlds serves one binary with the environment env (GOGC, GOMEMLIMIT) and loads its worlds.
func runWorlds(b *testing.B, bin string, env []string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	base, cmd, stop := serveBinary(ctx, b, bin, env, "--rate-limit", "1000000000")
	defer stop()
	clients, m := worldClients(b, base)
	var next atomic.Int64
	lat := make([][]time.Duration, busyWorlds)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for w := range busyWorlds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := clients[w]
			for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
				d, err := c.send(worldRequest(i, m))
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
	if reportLatencies(b, lat, elapsed) == 0 {
		return
	}
	b.ReportMetric(procStatus(b, cmd.Process.Pid, "VmRSS:")/1024, "RSS-MB")
	b.ReportMetric(procStatus(b, cmd.Process.Pid, "VmHWM:")/1024, "peak-RSS-MB")
}

// worldClient sends to one named world with the member's token of that world.
type worldClient struct {
	http   *http.Client
	prefix string
	auth   string
}

// worldClients logs the member in to each of the busy worlds and returns their clients and the
// seeded manifest (every world starts from the same seed).
func worldClients(b *testing.B, base string) ([]*worldClient, fixtures.Manifest) {
	b.Helper()
	var m fixtures.Manifest
	res, err := http.Get(base + "/__mock/fixtures")
	if err != nil {
		b.Fatal(err)
	}
	err = json.NewDecoder(res.Body).Decode(&m)
	res.Body.Close()
	if err != nil {
		b.Fatalf("manifest: %v", err)
	}
	clients := make([]*worldClient, busyWorlds)
	creds, _ := json.Marshal(map[string]string{"email": m.Users.Member.Email, "password": m.Users.Member.Password})
	for w := range clients {
		c := &worldClient{http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1, MaxConnsPerHost: 1}},
			prefix: fmt.Sprintf("%s/__worlds/bench-%d", base, w)}
		b.Cleanup(c.http.CloseIdleConnections)
		var login struct {
			Data struct {
				Token string `json:"token"`
			} `json:"data"`
		}
		res, err := c.http.Post(c.prefix+"/v1/authenticate", "application/json", bytes.NewReader(creds))
		if err != nil {
			b.Fatal(err)
		}
		err = json.NewDecoder(res.Body).Decode(&login)
		res.Body.Close()
		if err != nil || login.Data.Token == "" {
			b.Fatalf("log in to world %d: %v (status %d)", w, err, res.StatusCode)
		}
		c.auth = "Bearer " + login.Data.Token
		clients[w] = c
	}
	return clients, m
}

// worldRequest is the i-th request of the mix: path and body.
func worldRequest(i int64, m fixtures.Manifest) (string, []byte) {
	var body map[string]any
	path := opsV1
	switch i % 4 {
	case 0, 2:
		path, body = path+"comments/list", map[string]any{"card_id": m.Operations.CardID, "per_page": 15}
	case 1:
		path, body = path+"comments/create", map[string]any{"card_id": m.Operations.CardID, "comment": fmt.Sprintf("busy world comment %d", i)}
	default:
		path, body = path+"cards/create", map[string]any{"title": fmt.Sprintf("busy world card %d", i)}
	}
	raw, _ := json.Marshal(body)
	return path, raw
}

// send posts body to path in the client's world; any status but 200 or 201 is an error.
func (c *worldClient) send(path string, body []byte) (time.Duration, error) {
	d, err := loadOne(c.http, c.prefix+path, body, c.auth)
	if se, ok := err.(*statusError); ok && se.status == http.StatusCreated {
		err = nil
	}
	return d, err
}
