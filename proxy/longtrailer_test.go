package proxy_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/proxy"
)

// An upstream's trailer section of a few KiB passes to the client; one past what the proxy
// reads of it is left out, the body passed on whole and the exchange not blamed on the
// deployment: HTTP bounds no trailer, and a 4 KiB one once cut the client's answer short with
// UP-1 "the answer body broke off".
func TestLongUpstreamTrailersDoNotBreakTheAnswer(t *testing.T) {
	body := `{"error":false,"message":"ok","data":{"tags":[]}}`
	// A client that reads trailers of up to 1 MiB (Go's reads 4 KiB by default).
	client := &http.Client{Transport: &http.Transport{ReadBufferSize: 1 << 20}}
	for _, c := range []struct {
		name    string
		size    int
		relayed bool
	}{{"8 KiB", 8 << 10, true}, {"200 KiB", 200 << 10, false}} {
		t.Run(c.name, func(t *testing.T) {
			value := strings.Repeat("v", c.size)
			chunked := itoa16(len(body)) + "\r\n" + body + "\r\n0\r\nX-T: " + value + "\r\n\r\n"
			p, err := proxy.New(proxy.Config{Upstream: rawUpstream(t, answerWith("Transfer-Encoding: chunked\r\nTrailer: X-T\r\n", []byte(chunked)))})
			if err != nil {
				t.Fatal(err)
			}
			front := httptest.NewServer(p)
			t.Cleanup(front.Close)
			req, _ := http.NewRequest(http.MethodPost, front.URL+pTagsList, strings.NewReader("{}"))
			req.Header.Set("Content-Type", "application/json")
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			got, err := io.ReadAll(res.Body)
			if err != nil || string(got) != body {
				t.Fatalf("the client got %d bytes %.100q (%v), want the whole body", len(got), got, err)
			}
			if v := res.Header.Get("X-Contract-Violations"); v != "" {
				t.Errorf("verdict %q for a whole answer with a long trailer, want none", v)
			}
			if relayed := res.Trailer.Get("X-T") == value; relayed != c.relayed {
				t.Errorf("trailer relayed: %v, want %v", relayed, c.relayed)
			}
		})
	}
}
