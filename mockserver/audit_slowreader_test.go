package mockserver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// Whole reads of a large world take turns (D206), but a client that does not read its answer
// holds the answer's bytes, not every other reader's turn: another large world's snapshot is
// answered while the first client's answer waits in the network.
func TestSlowReaderOfALargeWorldDoesNotHoldOthersTurn(t *testing.T) {
	t.Cleanup(mockserver.LowerLargeRead(2 << 20)) // large worlds of 8 MiB, not 20: still more than the socket buffers hold
	m := newMock(t, mockserver.Config{})
	for _, w := range []string{"big1", "big2"} {
		growWorld(t, m, w, 8<<20)
	}
	answeredWhileOneDoesNotRead(t, m, "/__worlds/big1/__mock/state", "/__worlds/big2/__mock/state")
}

// growWorld loads a snapshot of world w with descriptions that bring its records past size.
func growWorld(t *testing.T, m *mock, w string, size int) {
	t.Helper()
	m.ctl(http.MethodPost, "/__worlds/"+w+"/__mock/reset", nil).wantStatus(t, http.StatusOK) // a read makes no world (D141)
	var st map[string]any
	if err := json.Unmarshal(m.ctl(http.MethodGet, "/__worlds/"+w+"/__mock/state", nil).wantStatus(t, http.StatusOK).raw, &st); err != nil {
		t.Fatal(err)
	}
	cards := st["cards"].([]any)
	per := size/len(cards) + 1
	for _, c := range cards {
		c.(map[string]any)["description"] = strings.Repeat("d", per)
	}
	b, _ := json.Marshal(st)
	m.ctl(http.MethodPut, "/__worlds/"+w+"/__mock/state", string(b)).wantStatus(t, http.StatusOK)
}

// Flows are built one at a time (D173), but a client that does not read a large flow holds its
// bytes, not every other world's turn: another world's flow is answered while the first
// client's flow waits in the network.
func TestSlowReaderOfALargeFlowDoesNotHoldOthersTurn(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	bigFlow(t, m, "bigflow")
	m.ctl(http.MethodPost, "/__worlds/other/__mock/reset", nil).wantStatus(t, http.StatusOK)
	answeredWhileOneDoesNotRead(t, m, "/__worlds/bigflow/__mock/flow", "/__worlds/other/__mock/flow")
}

// answerWait bounds the wait for an answer that comes at once when the mock is right, and
// never when it makes the request wait for a client that does not read (the test server has
// no write timeout): long, since building a large answer under the race detector on a busy
// machine has taken over 20 seconds.
const answerWait = 2 * time.Minute

// answeredWhileOneDoesNotRead asks for stuck on a connection that reads nothing (its answer,
// larger than the socket buffers, waits in the network), then for other, which must be
// answered 200 within answerWait.
func answeredWhileOneDoesNotRead(t *testing.T, m *mock, stuck, other string) {
	t.Helper()
	host := strings.TrimPrefix(m.url, "http://")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() }) // it stays stuck until the test ends
	_ = conn.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", stuck, host)
	// Its status line has come: the answer is built and being written, and (more than the
	// socket buffers hold) stuck in the network. Building it may take long under the race
	// detector; only then is the other request timed.
	_ = conn.SetReadDeadline(time.Now().Add(2 * time.Minute))
	if line, err := bufio.NewReaderSize(conn, 64).ReadString('\n'); err != nil || !strings.Contains(line, " 200 ") {
		t.Fatalf("%s: %q %v", stuck, line, err)
	}

	done := make(chan int, 1)
	go func() {
		res, err := http.Get(m.url + other)
		if err != nil {
			done <- 0
			return
		}
		res.Body.Close()
		done <- res.StatusCode
	}()
	select {
	case code := <-done:
		if code != http.StatusOK {
			t.Errorf("%s while %s is not read: %d", other, stuck, code)
		}
	case <-time.After(answerWait):
		t.Fatalf("%s waited for a client that does not read %s", other, stuck)
	}
}

// Past the bytes of large answers the mock holds for clients that do not read them, another
// large answer is refused with 503 at once, and small ones still come: 40 clients not reading
// an 8 MB flow each took the bound past 256 MiB, and every other flow download then waited for
// the write timeout. The same flow, unchanged, shares the bytes already held: it comes at once.
func TestLargeAnswersPastTheBoundAreRefused(t *testing.T) {
	t.Cleanup(mockserver.LowerAnswersInFlight(10 << 20))
	m := newMock(t, mockserver.Config{})
	bigFlow(t, m, "bigflow")
	bigFlow(t, m, "bigflow2")
	m.ctl(http.MethodPost, "/__worlds/other/__mock/reset", nil).wantStatus(t, http.StatusOK)
	answeredWhileOneDoesNotRead(t, m, "/__worlds/bigflow/__mock/flow", "/__worlds/other/__mock/flow")
	same := make(chan answer, 1)
	go func() { same <- m.ctl(http.MethodGet, "/__worlds/bigflow/__mock/flow", nil) }()
	select {
	case a := <-same:
		a.wantStatus(t, http.StatusOK)
	case <-time.After(answerWait):
		t.Fatal("the same unchanged flow waited instead of sharing the bytes being written")
	}
	done := make(chan answer, 1)
	go func() { done <- m.ctl(http.MethodGet, "/__worlds/bigflow2/__mock/flow", nil) }()
	select {
	case a := <-done:
		a.wantStatus(t, http.StatusServiceUnavailable).wantShape(t, "a")
		if a.header.Get("Retry-After") == "" {
			t.Error("the 503 has no Retry-After")
		}
	case <-time.After(answerWait):
		t.Fatal("a second large flow past the bound waited instead of being refused")
	}
}

// bigFlow fills world w's flow with 7 MB of request bodies, more than the socket buffers hold.
func bigFlow(t *testing.T, m *mock, w string) {
	t.Helper()
	creds := m.manifest.Users.Member
	tok := m.ctl(http.MethodPost, "/__worlds/"+w+"/v1/authenticate", map[string]any{"email": creds.Email, "password": creds.Password}).
		wantStatus(t, http.StatusOK).data()["token"].(string)
	for range 7 { // request bodies are kept whole: a flow of 7 MB, more than the socket buffers hold
		body := map[string]any{"title": "big", "unused": strings.Repeat("d", 1000<<10)} // not in the answer
		m.ctl(http.MethodPost, "/__worlds/"+w+"/services/operations/v1/operations/cards/create", body,
			"Authorization", "Bearer "+tok).wantStatus(t, http.StatusOK)
	}
}

// Every large answer counts against the bytes being written to clients that do not read them,
// not only whole reads of the largest worlds: a dozen clients not reading an 80 MB cards/list
// (or a 19 MB journal) of a world under that size took the mock to gigabytes.
func TestEveryLargeAnswerCountsAgainstTheBound(t *testing.T) {
	t.Cleanup(mockserver.LowerAnswersInFlight(8 << 20))
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodPost, "/__worlds/big/__mock/reset", map[string]any{}).wantStatus(t, http.StatusOK)
	growWorld(t, m, "big", 6<<20)
	m.ctl(http.MethodPost, "/__worlds/other/__mock/reset", nil).wantStatus(t, http.StatusOK)
	answeredWhileOneDoesNotRead(t, m, "/__worlds/big/__mock/state", "/__worlds/other/__mock/state")
	a := m.ctl(http.MethodGet, "/__worlds/big/__mock/state", nil)
	a.wantStatus(t, http.StatusServiceUnavailable).wantShape(t, "a")
	if a.header.Get("Retry-After") == "" {
		t.Error("the 503 has no Retry-After")
	}
	// An operation of the interface refused so still carries its rate-limit headers, as its
	// every other answer does.
	creds := m.manifest.Users.Member
	tok := m.ctl(http.MethodPost, "/__worlds/big/v1/authenticate", map[string]any{"email": creds.Email, "password": creds.Password}).
		wantStatus(t, http.StatusOK).data()["token"].(string)
	list := m.ctl(http.MethodPost, "/__worlds/big/services/operations/v1/operations/cards/list", map[string]any{}, "Authorization", "Bearer "+tok)
	list.wantStatus(t, http.StatusServiceUnavailable).wantShape(t, "a")
	for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "Retry-After"} {
		if list.header.Get(h) == "" {
			t.Errorf("the 503 to cards/list has no %s: %v", h, list.header)
		}
	}
}

// An answer larger than the whole bound is written when no other large answer is: a world
// whose descriptions the JSON escapes sixfold built a snapshot and a card list past 256 MiB,
// which answered 503 "still writing" on every retry of an idle mock.
func TestAnAnswerPastTheWholeBoundIsWrittenAlone(t *testing.T) {
	t.Cleanup(mockserver.LowerAnswersInFlight(2 << 20))
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodPost, "/__worlds/big/__mock/reset", map[string]any{}).wantStatus(t, http.StatusOK)
	growWorld(t, m, "big", 6<<20)
	if a := m.ctl(http.MethodGet, "/__worlds/big/__mock/state", nil).wantStatus(t, http.StatusOK); len(a.raw) <= 2<<20 {
		t.Fatalf("the snapshot is %d bytes, not past the bound", len(a.raw))
	}
	creds := m.manifest.Users.Member
	tok := m.ctl(http.MethodPost, "/__worlds/big/v1/authenticate", map[string]any{"email": creds.Email, "password": creds.Password}).
		wantStatus(t, http.StatusOK).data()["token"].(string)
	m.ctl(http.MethodPost, "/__worlds/big/services/operations/v1/operations/cards/list", map[string]any{}, "Authorization", "Bearer "+tok).
		wantStatus(t, http.StatusOK)
}
