package mockserver_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A snapshot announced larger than PUT /__mock/state takes is refused before it is sent: 413 at
// once, without "100 Continue", so a client does not upload 300 MB to be told so.
func TestOversizeSnapshotIsRefusedUnread(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	host := strings.TrimPrefix(m.url, "http://")
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "PUT /__mock/state HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 300000000\r\nExpect: 100-continue\r\n\r\n", host)
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer to an announced 300 MB snapshot: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("an announced 300 MB snapshot: %d, want 413 before any byte is sent", res.StatusCode)
	}
}
