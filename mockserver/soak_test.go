package mockserver_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// soakFor is how long TestSoak runs under `make soak` (60 s); zero, as in the test command, runs
// soakSteps requests per client instead, so the quick loop's soak does the same work on any
// machine.
var soakFor = flag.Duration("soak", 0, "how long TestSoak hammers the mock (0: soakSteps requests per client)")

// soakSteps is the number of requests each client sends when -soak is not given.
const soakSteps = 100

// soakClients is the number of concurrent clients, each with its own keep-alive connection.
const soakClients = 64

// soaker is one client of the soak and what the mock acknowledged to it.
type soaker struct {
	client *http.Client
	url    string
	token  string
	card   int64
	cards  []int64 // ids of cards/create answers
	notes  []int64 // ids of comments/create answers on card
	calls  int
}

// TestSoak: 64 clients mix reads and writes against one mock over loopback (soakSteps requests
// each, or for -soak). No
// answer is a 5xx, no request fails in transport, every acknowledged write is visible
// afterwards, and the heap grows by a bounded amount per write (docs/performance.md, soak).
func TestSoak(t *testing.T) {
	m := newMock(t, mockserver.Config{RateLimit: 1 << 30})
	token := m.login(m.manifest.Users.Member)
	before := heapInUse()
	var failures atomic.Int64
	deadline := time.Now().Add(*soakFor)
	more := func(i int) bool { return i < soakSteps }
	if *soakFor > 0 {
		more = func(int) bool { return time.Now().Before(deadline) }
	}
	clients := make([]*soaker, soakClients)
	var wg sync.WaitGroup
	for i := range clients {
		c := &soaker{client: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 1}},
			url: m.url, token: token, card: m.manifest.Operations.CardID}
		clients[i] = c
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.client.CloseIdleConnections()
			for i := 0; more(i); i++ {
				if err := c.step(i); err != nil {
					if failures.Add(1) <= 5 {
						t.Error(err)
					}
					return
				}
			}
		}()
	}
	wg.Wait()
	if failures.Load() > 0 {
		t.Fatalf("%d clients failed", failures.Load())
	}
	writes, calls := checkWritesVisible(t, m, token, clients)
	grown := int64(heapInUse()) - int64(before)
	t.Logf("soak: %d clients, %s, %d requests, %d acknowledged writes, heap %+d kB", soakClients, soakSpan(), calls, writes, grown/1024)
	if writes > 0 && grown/int64(writes) > 16<<10 {
		t.Errorf("heap grew by %d bytes per acknowledged write (want < 16 kB)", grown/int64(writes))
	}
}

// step sends the i-th request of a client: half comment pages, the rest writes and lists.
func (c *soaker) step(i int) error {
	c.calls++
	switch i % 8 {
	case 0, 2, 4, 6:
		_, err := c.post("/services/operations/v1/operations/comments/list", map[string]any{"card_id": c.card, "per_page": 15, "page": 1 + i%3})
		return err
	case 1, 5:
		data, err := c.post("/services/operations/v1/operations/comments/create", map[string]any{"card_id": c.card, "comment": fmt.Sprint("soak ", i)})
		if err == nil {
			c.notes = append(c.notes, int64(data["comment"].(map[string]any)["id"].(float64)))
		}
		return err
	case 3:
		data, err := c.post("/services/operations/v1/operations/cards/create", map[string]any{"title": fmt.Sprint("soak ", i)})
		if err == nil {
			c.cards = append(c.cards, int64(data["card"].(map[string]any)["id"].(float64)))
		}
		return err
	default:
		_, err := c.post("/services/operations/v1/operations/tags/list", map[string]any{})
		return err
	}
}

// post sends one request and returns the data of a 200, or an error for anything else.
func (c *soaker) post(path string, body any) (map[string]any, error) {
	raw, _ := json.Marshal(body)
	req, err := http.NewRequest(http.MethodPost, c.url+path, bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.token)
	res, err := c.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: transport: %w", path, err)
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: status %d, read error %v: %s", path, res.StatusCode, err, answer)
	}
	var env struct {
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(answer, &env); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return env.Data, nil
}

// checkWritesVisible lists every card and every comment of the soaked card and fails for each
// acknowledged write that is missing. It returns the writes and the requests sent.
func checkWritesVisible(t *testing.T, m *mock, token string, clients []*soaker) (writes, calls int) {
	t.Helper()
	cards := map[int64]bool{}
	for _, c := range m.post("/services/operations/v1/operations/cards/list", token, nil).data()["cards"].([]any) {
		cards[int64(c.(map[string]any)["id"].(float64))] = true
	}
	notes := map[int64]bool{}
	for page := 1; ; page++ {
		d := m.post("/services/operations/v1/operations/comments/list", token,
			map[string]any{"card_id": m.manifest.Operations.CardID, "per_page": 100, "page": page}).data()
		for _, c := range d["comments"].([]any) {
			notes[int64(c.(map[string]any)["id"].(float64))] = true
		}
		if float64(page) >= d["pagination"].(map[string]any)["total_pages"].(float64) {
			break
		}
	}
	for _, c := range clients {
		calls += c.calls
		writes += len(c.cards) + len(c.notes)
		for _, id := range c.cards {
			if !cards[id] {
				t.Errorf("card %d was acknowledged but is not listed", id)
			}
		}
		for _, id := range c.notes {
			if !notes[id] {
				t.Errorf("comment %d was acknowledged but is not listed", id)
			}
		}
	}
	return writes, calls
}

func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// soakSpan says how long or how much the soak ran.
func soakSpan() string {
	if *soakFor > 0 {
		return soakFor.String()
	}
	return fmt.Sprintf("%d requests each", soakSteps)
}
