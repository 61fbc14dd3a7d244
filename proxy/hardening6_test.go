package proxy_test

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// An answer that is valid JSON nested deeper than any JSON reader of the toolkit reads (10000
// levels) is passed on unjudged, with a note, not called "not JSON": that false ENV-1 failed CI
// through --fail-on-violation.
func TestDeeplyNestedAnswerIsNotJudgedNotJSON(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	body := []byte(`{"error":false,"message":"ok","data":{"tags":[],"x":` + deep + `}}`)
	status, verdict := throughProxy(t, rawUpstream(t, answerWith("Content-Length: "+itoa(len(body))+"\r\n", body)))
	if status != http.StatusOK || verdict != "" {
		t.Errorf("a 20000-deep valid answer: %d with verdict %q, want the 200 passed on without one", status, verdict)
	}
}

// A header the upstream sends in its header section and also announces as a trailer stays in
// the header section, with the upstream's value, and the trailer follows the body with its own
// value alone, as the upstream sent it: the client once got the header's value moved into the
// trailers beside the trailer's own.
func TestHeaderAnnouncedAsTrailerStaysAHeader(t *testing.T) {
	body := `{"error":false,"message":"ok","data":{"tags":[]}}`
	chunked := itoa16(len(body)) + "\r\n" + body + "\r\n0\r\nX-RateLimit-Remaining: 5000\r\n\r\n"
	res := answerThroughProxy(t, rawUpstream(t, answerWith("Transfer-Encoding: chunked\r\nTrailer: X-RateLimit-Remaining\r\n", []byte(chunked))))
	if got := res.Header.Values("X-RateLimit-Remaining"); len(got) != 1 || got[0] != "59" {
		t.Errorf("X-RateLimit-Remaining in the header section: %v, want [59] as the upstream sent it", got)
	}
	if got := res.Trailer.Values("X-RateLimit-Remaining"); len(got) != 1 || got[0] != "5000" {
		t.Errorf("the trailer X-RateLimit-Remaining: %v, want [5000] as the upstream sent it", got)
	}
}

func itoa16(n int) string { return strconv.FormatInt(int64(n), 16) }

// ?limit= given twice on the proxy's journal is refused, as the mock's journal refuses it:
// which one was meant is a guess.
func TestExchangesLimitGivenTwiceIsRefused(t *testing.T) {
	s := startProxy(t, newMock(t))
	for _, q := range []string{"limit=1&limit=5", "limit=&limit="} { // twice, even when empty
		res, err := http.Get(s.url + "/__proxy/exchanges?" + q)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(raw), "more than once") {
			t.Errorf("?%s: %d %s, want 422 saying limit is given more than once", q, res.StatusCode, raw)
		}
	}
}

// The proxy's pages refuse a parameter they do not read, a query string that cannot be read,
// and an empty limit, as the mock's controls do: any would list every exchange as if the
// client's filter applied.
func TestExchangesRefuseParametersTheyDoNotRead(t *testing.T) {
	s := startProxy(t, newMock(t))
	for target, want := range map[string]int{
		"/__proxy/exchanges?bogus=1":                     http.StatusBadRequest,
		"/__proxy/exchanges?status=500":                  http.StatusBadRequest,
		"/__proxy/exchanges?limit=":                      http.StatusUnprocessableEntity,
		"/__proxy/exchanges?limit=2":                     http.StatusOK,
		"/__proxy/exchanges?limit=99999999999999999999":  http.StatusOK, // past int: every exchange kept
		"/__proxy/exchanges?limit=-99999999999999999999": http.StatusUnprocessableEntity,
		"/__proxy/exchanges?limit=2&x=1&y=2":             http.StatusBadRequest,
		"/__proxy/exchanges?limit=%zz":                   http.StatusBadRequest,
		"/__proxy/exchanges?limit=2;":                    http.StatusBadRequest,
		"/__proxy/rules?x=1":                             http.StatusBadRequest,
		"/__proxy/?x=1":                                  http.StatusBadRequest,
	} {
		res, err := http.Get(s.url + target)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("%s: %d %s, want %d", target, res.StatusCode, raw, want)
		}
		if want == http.StatusBadRequest && !strings.Contains(string(raw), "does not read") && !strings.Contains(string(raw), "cannot be read") {
			t.Errorf("%s: %s, want the parameters named", target, raw)
		}
	}
}
