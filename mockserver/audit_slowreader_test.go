package mockserver_test

import (
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
	conn, err := net.Dial("tcp", strings.TrimPrefix(m.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(conn, "GET /__worlds/big1/__mock/state HTTP/1.1\r\nHost: %s\r\n\r\n", strings.TrimPrefix(m.url, "http://"))
	time.Sleep(500 * time.Millisecond) // its answer is built and stuck in the network

	done := make(chan int, 1)
	go func() {
		res, err := http.Get(m.url + "/__worlds/big2/__mock/state")
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
			t.Errorf("the second world's snapshot: %d", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the second world's snapshot waited for a client that does not read its answer")
	}
}

// growWorld loads a snapshot of world w with descriptions that bring its records past size.
func growWorld(t *testing.T, m *mock, w string, size int) {
	t.Helper()
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
