package mockserver_test

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A client trickling a snapshot into one world does not hold up another world's snapshot:
// snapshots load one at a time (D65), but a body small enough to read whole is read before
// waiting its turn, and one still arriving holds nobody's turn until it is read past that size.
func TestSlowSnapshotUploadDoesNotBlockAnotherWorld(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodPost, "/__worlds/b/__mock/reset", nil).wantStatus(t, http.StatusOK)
	snap := string(m.ctl(http.MethodGet, "/__worlds/b/__mock/state", nil).wantStatus(t, http.StatusOK).raw)

	conn, err := net.Dial("tcp", strings.TrimPrefix(m.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "PUT /__worlds/a/__mock/state HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{\"users\":", strings.TrimPrefix(m.url, "http://"))
	time.Sleep(100 * time.Millisecond) // the trickling upload has reached the mock

	done := make(chan answer, 1)
	go func() { done <- m.ctl(http.MethodPut, "/__worlds/b/__mock/state", snap) }()
	select {
	case a := <-done:
		if a.status != http.StatusOK {
			t.Errorf("world b's snapshot: %d %s", a.status, a.raw)
		}
	case <-time.After(20 * time.Second): // the mock's read timeout is far longer
		t.Fatal("world b's snapshot waited for world a's upload, which is still arriving")
	}
}

// The same for large snapshots: one of more than 2 MiB still arriving holds nobody's turn, so
// another world's large snapshot loads meanwhile (a trickled 3 MB upload held every other large
// snapshot for the mock's read timeout, 95 s).
func TestSlowLargeSnapshotUploadDoesNotBlockAnotherLargeOne(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	growWorld(t, m, "b", 3<<20)
	snap := string(m.ctl(http.MethodGet, "/__worlds/b/__mock/state", nil).wantStatus(t, http.StatusOK).raw)
	if len(snap) <= 2<<20 {
		t.Fatalf("the snapshot has %d bytes, want a large one", len(snap))
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(m.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "PUT /__worlds/a/__mock/state HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		strings.TrimPrefix(m.url, "http://"), len(snap), snap[:len(snap)-1000]) // all but its last bytes
	time.Sleep(300 * time.Millisecond) // the trickling upload has reached the mock, past 2 MiB

	done := make(chan answer, 1)
	go func() { done <- m.ctl(http.MethodPut, "/__worlds/c/__mock/state", snap) }()
	select {
	case a := <-done:
		if a.status != http.StatusOK {
			t.Errorf("world c's snapshot: %d %s", a.status, a.raw)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("world c's large snapshot waited for world a's, which is still arriving")
	}
}
