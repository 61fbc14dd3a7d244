package proxy_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/textproto"
	"net/url"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/proxy"
)

// interimThrough sends a POST through a proxy in front of up and returns the interim answers
// the client got, the final status and body, and the notes the journal holds for the exchange.
func interimThrough(t *testing.T, up *url.URL) (interim []textproto.MIMEHeader, status int, body string, notes []string) {
	t.Helper()
	p, err := proxy.New(proxy.Config{Upstream: up})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	t.Cleanup(front.Close)
	ctx := httptrace.WithClientTrace(t.Context(), &httptrace.ClientTrace{Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
		interim = append(interim, h)
		return nil
	}})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, front.URL+pTagsList, strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	jr, err := http.Get(front.URL + "/__proxy/exchanges")
	if err != nil {
		t.Fatal(err)
	}
	defer jr.Body.Close()
	var page struct {
		Exchanges []struct {
			Notes []string `json:"notes"`
		} `json:"exchanges"`
	}
	all, _ := io.ReadAll(jr.Body)
	if err := json.Unmarshal(all, &page); err != nil || len(page.Exchanges) != 1 {
		t.Fatalf("journal %.300s: want one exchange (%v)", all, err)
	}
	return interim, res.StatusCode, string(raw), page.Exchanges[0].Notes
}

func headerSize(h textproto.MIMEHeader) int {
	n := 0
	for name, values := range h {
		for _, v := range values {
			n += len(name) + len(v) + 4
		}
	}
	return n
}

const finalAnswer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"

// An upstream that sends thousands of interim answers (103 Early Hints) before its answer has
// a few of them passed on, then the answer itself, and the journal says the rest were not
// (D222): each one relayed cost the client, and the proxy's connection to it, as much as the
// upstream chose.
func TestManyInterimAnswersAreBounded(t *testing.T) {
	var b strings.Builder
	for range 2000 {
		b.WriteString("HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n")
	}
	b.WriteString(finalAnswer)
	interim, status, body, notes := interimThrough(t, rawUpstream(t, []byte(b.String())))
	if status != http.StatusOK || body != "{}" {
		t.Fatalf("final answer %d %q, want the upstream's 200 with {}", status, body)
	}
	if len(interim) != 8 {
		t.Errorf("%d interim answers reached the client, want the first 8", len(interim))
	}
	if n := strings.Join(notes, " "); !strings.Contains(n, "sent 2000 interim (1xx) answers") || !strings.Contains(n, "past the first 8 were not passed on") {
		t.Errorf("journal notes %q, want one saying how many interim answers were not passed on", notes)
	}
}

// An interim answer whose header fields are huge (a 500 KB Link) is not passed on; the small
// ones around it and the final answer are, and the journal says one was left out (D222).
func TestHugeInterimAnswersAreNotRelayed(t *testing.T) {
	huge := "HTTP/1.1 103 Early Hints\r\nLink: </" + strings.Repeat("a", 500<<10) + ">; rel=preload\r\n\r\n"
	small := "HTTP/1.1 103 Early Hints\r\nLink: </b.css>; rel=preload\r\n\r\n"
	up := rawUpstream(t, []byte(small+huge+huge+huge+small+finalAnswer))
	interim, status, body, notes := interimThrough(t, up)
	if status != http.StatusOK || body != "{}" {
		t.Fatalf("final answer %d %q, want the upstream's 200 with {}", status, body)
	}
	if len(interim) != 2 {
		t.Errorf("%d interim answers reached the client, want the 2 small ones", len(interim))
	}
	for i, h := range interim {
		if n := headerSize(h); n > 16<<10 {
			t.Errorf("interim answer %d reached the client with %d bytes of header fields", i, n)
		}
	}
	if n := strings.Join(notes, " "); !strings.Contains(n, "3 with header fields past 16 KiB were not passed on") {
		t.Errorf("journal notes %q, want one saying interim answers were not passed on", notes)
	}
}
