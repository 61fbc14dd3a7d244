package mockserver_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A snapshot sent chunked, with no length announced, past what PUT /__mock/state takes is
// refused once the bound is passed, holding about the bound and no more: not read on to the
// end, and not held twice or thrice over while a buffer grows (an attacker's 300 MB upload once
// cost the mock 1.3 GB for as long as it took).
func TestChunkedOversizeSnapshotIsRefusedAtTheBound(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	host := strings.TrimPrefix(m.url, "http://")
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const limit = 256 << 20
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)

	sent := make(chan int64, 1)
	go func() {
		fmt.Fprintf(c, "PUT /__mock/state HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n", host)
		piece := []byte(fmt.Sprintf("%x\r\n%s\r\n", 1<<16, strings.Repeat(" ", 1<<16)))
		var n int64
		for n < 2*limit {
			if _, err := c.Write(piece); err != nil {
				break
			}
			n += 1 << 16
		}
		sent <- n
	}()
	_ = c.SetReadDeadline(time.Now().Add(2 * time.Minute))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer to a chunked snapshot past the bound: %v", err)
	}
	res.Body.Close()
	c.Close()
	n := <-sent

	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a chunked snapshot past the bound: %d, want 413", res.StatusCode)
	}
	if n >= 2*limit {
		t.Errorf("the whole %d MiB were read before the answer; want the refusal at the bound", n>>20)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > limit*3/2 {
		t.Errorf("the mock allocated %d MiB to refuse a body past %d MiB; want about the bound", got>>20, limit>>20)
	}
}
