package proxy_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/proxy"
)

// rawUpstream answers every request with the bytes of answer, as written, then closes.
func rawUpstream(t *testing.T, answer []byte) *url.URL {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				req, err := http.ReadRequest(bufio.NewReader(c))
				if err != nil {
					return
				}
				_, _ = io.Copy(io.Discard, req.Body)
				_, _ = c.Write(answer)
			}()
		}
	}()
	return &url.URL{Scheme: "http", Host: ln.Addr().String()}
}

// throughProxy posts {} to tags/list through a proxy of upstream and returns the answer's
// status and verdict header (the body read as far as it goes).
func throughProxy(t *testing.T, upstream *url.URL) (int, string) {
	t.Helper()
	res := answerThroughProxy(t, upstream)
	return res.StatusCode, res.Header.Get(proxy.HeaderViolations)
}

// answerThroughProxy is throughProxy's answer, its body read (so its trailers are in).
func answerThroughProxy(t *testing.T, upstream *url.URL) *http.Response {
	t.Helper()
	_, res, _ := exchangeThroughProxy(t, upstream)
	return res
}

// exchangeThroughProxy sends a tags/list call through a new proxy in front of upstream and
// returns the proxy, its answer and the answer's body.
func exchangeThroughProxy(t *testing.T, upstream *url.URL) (*proxy.Proxy, *http.Response, []byte) {
	t.Helper()
	p, err := proxy.New(proxy.Config{Upstream: upstream})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	t.Cleanup(front.Close)
	req, _ := http.NewRequest(http.MethodPost, front.URL+pTagsList, strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer x")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("the client got no answer at all: %v", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return p, res, body
}

func answerWith(header string, body []byte) []byte {
	// Connection: close, as the raw upstream closes after each answer: a reused connection
	// would meet that close as the next POST's broken answer.
	return append([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nX-RateLimit-Limit: 60\r\nX-RateLimit-Remaining: 59\r\n"+header+"\r\n"), body...)
}

// An answer whose Content-Encoding says gzip and whose bytes are not gzip, or a gzip stream
// cut short, is one no client can read: the deployment's UP-1, as the same bytes without the
// header break ENV-1, never a clean exchange.
func TestUndecodableGzipAnswerIsUP1(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(`{"error":false,"message":"ok","data":{"tags":[]}}`))
	_ = zw.Close()
	cut := gz.Bytes()[:gz.Len()-8] // without the CRC and the length
	plain := []byte("not json at all")
	for name, body := range map[string][]byte{"not gzip": plain, "gzip cut short": cut} {
		head := "Content-Encoding: gzip\r\nContent-Length: " + itoa(len(body)) + "\r\n"
		status, verdict := throughProxy(t, rawUpstream(t, answerWith(head, body)))
		if status != http.StatusOK || verdict != "UP-1" {
			t.Errorf("%s: %d with verdict %q, want the 200 passed on with UP-1", name, status, verdict)
		}
	}
}

// An answer whose chunked body breaks at its first byte reaches the client as the proxy's 502
// with UP-1, as a missing answer does: the client was left with an empty reply, no status and
// no verdict.
func TestAnswerBrokenAtFirstByteKeepsItsVerdict(t *testing.T) {
	status, verdict := throughProxy(t, rawUpstream(t, answerWith("Transfer-Encoding: chunked\r\n", []byte("ZZZ\r\nxx\r\n"))))
	if status != http.StatusBadGateway || verdict != "UP-1" {
		t.Errorf("a body broken at byte 0: %d with verdict %q, want 502 with UP-1", status, verdict)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// The README's "save the world, change it, put it back" through the proxy: after a snapshot
// is loaded (or the mock reset) through it, a list that counts fewer entries than the creates
// before it is not the deployment's LIST-1, since the records behind the count were replaced.
func TestRestoredSnapshotIsNotLIST1(t *testing.T) {
	s := startProxy(t, newMock(t))
	tok := s.login(t, manifest().Users.Member)
	res, err := http.Get(s.url + "/__mock/state")
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := io.ReadAll(res.Body)
	res.Body.Close()
	s.post(t, pTagsList, tok, `{}`)
	if a := s.post(t, "/services/operations/v1/operations/tags/create", tok, `{"name":"n1"}`); a.status != http.StatusOK {
		t.Fatalf("tags/create: %d %s", a.status, a.body)
	}
	req, _ := http.NewRequest(http.MethodPut, s.url+"/__mock/state", bytes.NewReader(snap))
	req.Header.Set("Content-Type", "application/json")
	if a := s.do(t, req); a.status != http.StatusOK {
		t.Fatalf("PUT /__mock/state through the proxy: %d %s", a.status, a.body)
	}
	if a := s.post(t, pTagsList, tok, `{}`); a.header.Get(proxy.HeaderViolations) != "" {
		t.Errorf("the list after the restore: %s %q, want no violation", proxy.HeaderViolations, a.header.Get(proxy.HeaderViolations))
	}
}

// An interim answer (103 Early Hints) reaches the client without the headers its Connection
// header names, or any other hop-by-hop header, as a final answer does (D140).
func TestInterimAnswerLosesHopByHopHeaders(t *testing.T) {
	up := rawUpstream(t, []byte("HTTP/1.1 103 Early Hints\r\nConnection: X-Hop\r\nX-Hop: secret\r\nKeep-Alive: timeout=5\r\nLink: </a.css>; rel=preload\r\n\r\n"+
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"))
	interim, _, _, _ := interimThrough(t, up)
	if len(interim) != 1 {
		t.Fatalf("%d interim answers reached the client, want the 103", len(interim))
	}
	h := interim[0]
	if h.Get("X-Hop") != "" || h.Get("Keep-Alive") != "" || h.Get("Connection") != "" || h.Get("Link") == "" {
		t.Errorf("the 103 reached the client with %v: want Link only", h)
	}
}

// The proxy's dashboard, which shows a deployment's recorded traffic, is never framed by another
// site nor read as another type, as the mock's is not.
func TestDashboardSendsBrowserSafetyHeaders(t *testing.T) {
	s := startProxy(t, newMock(t))
	for _, path := range []string{"/__proxy/", "/__proxy/exchanges"} {
		res, err := http.Get(s.url + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		h := res.Header
		if h.Get("X-Frame-Options") != "DENY" || !strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: headers %v, want anti-framing and nosniff", path, h)
		}
	}
}

// A request to an operation's path as servers commonly route it (a trailing slash, a ';'
// parameter, a doubled '/') is judged as that operation, with a note: it was passed through
// unchecked, so a client's base-URL join bug hid every violation of the answers it got.
func TestOperationReachedByARoutedPathIsChecked(t *testing.T) {
	up := rawUpstream(t, answerWith("Content-Length: 15\r\n", []byte("not json at all")))
	p, err := proxy.New(proxy.Config{Upstream: up})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	t.Cleanup(front.Close)
	for _, path := range []string{pTagsList + "/", pTagsList + ";x=1", "/" + pTagsList, strings.ToUpper(pTagsList)} {
		req, _ := http.NewRequest(http.MethodPost, front.URL+path, strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if v := res.Header.Get(proxy.HeaderViolations); !strings.Contains(v, "ENV-1") {
			t.Errorf("%s: verdict %q, want ENV-1 as for the operation's own path", path, v)
		}
	}
}

// A deployment that does not route such a path (the mock answers 404) is not judged for it.
func TestUnroutedPathIsNotADeploymentViolation(t *testing.T) {
	s := startProxy(t, newMock(t))
	tok := s.login(t, manifest().Users.Member)
	a := s.post(t, pTagsList+"/", tok, `{}`)
	if a.status != http.StatusNotFound || a.header.Get(proxy.HeaderViolations) != "" {
		t.Errorf("tags/list/ through the proxy to the mock: %d with verdict %q, want the 404 unjudged", a.status, a.header.Get(proxy.HeaderViolations))
	}
	if r := s.proxy.Report(); r.Checked != 0 {
		t.Errorf("the report counts %d exchanges checked, want 0 (the path is not the operation's)", r.Checked)
	}
}

// A path that encodes a '/' (tags%2Flist) names no operation: the proxy forwards it as sent and
// judges it as none, whatever the upstream makes of it (D146).
func TestEncodedSlashIsNoOperation(t *testing.T) {
	s := startProxy(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`not the envelope`)) // judged as tags/list, this would break ENV-1
	}))
	path := strings.Replace(pTagsList, "tags/list", "tags%2Flist", 1)
	a := s.post(t, path, "", `{}`)
	if v := a.header.Get(proxy.HeaderViolations); v != "" {
		t.Errorf("%s: verdict %q, want none (no operation's path)", path, v)
	}
	if r := s.proxy.Report(); r.Checked != 0 {
		t.Errorf("report counts %d exchanges checked, want 0", r.Checked)
	}
}

// An answer past the request bound (an unpaginated list of a realistic project) is still judged,
// and one past the answer bound is counted in the report as judged by status and headers only.
func TestLargeAnswersAreJudgedOrCountedUnjudged(t *testing.T) {
	size := 2 << 20
	s := startProxy(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("X-RateLimit-Limit", "10")
		w.Header().Set("X-RateLimit-Remaining", "9")
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"error":false,"message":"ok","data":"` + strings.Repeat("x", size) + `"`)) // not JSON: cut short
	}))
	a := s.post(t, pTagsList, "", `{}`)
	if v := a.header.Get(proxy.HeaderViolations); !strings.Contains(v, "ENV-1") {
		t.Errorf("a 2 MiB answer that is not JSON: verdict %q, want ENV-1 (judged)", v)
	}
	size = proxy.DefaultMaxAnswer + 10
	s.post(t, pTagsList, "", `{}`)
	if r := s.proxy.Report(); r.BodiesUnjudged != 1 {
		t.Errorf("report counts %d answers judged by status and headers only, want 1", r.BodiesUnjudged)
	}
	// A request body past its bound streams through unchecked: counted too, as the README says.
	size = 10
	s.post(t, pTagsList, "", `{"name":"`+strings.Repeat("a", 1200000)+`"}`)
	if r := s.proxy.Report(); r.BodiesUnjudged != 2 {
		t.Errorf("report counts %d exchanges with a body unjudged after a 1.2 MB request, want 2", r.BodiesUnjudged)
	}
}

// A request body sent gzip-compressed is judged by the JSON it carries, not called "not JSON".
func TestGzipRequestBodyIsJudgedDecoded(t *testing.T) {
	up := rawUpstream(t, answerWith("Content-Length: 51\r\n", []byte(`{"error":false,"message":"ok","data":{"tag":{"id":1}}}`[:51])))
	p, err := proxy.New(proxy.Config{Upstream: up})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	t.Cleanup(front.Close)
	for _, enc := range []string{"gzip", "identity, gzip"} {
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		_, _ = zw.Write([]byte(`{"name":"gz"}`))
		_ = zw.Close()
		req, _ := http.NewRequest(http.MethodPost, front.URL+"/services/operations/v1/operations/tags/create", &gz)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Content-Encoding", enc)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		for _, v := range p.Exchanges(1)[0].Violations {
			if v.Rule == "REQ-1" {
				t.Errorf("a request body of valid JSON in Content-Encoding %q is REQ-1: %s", enc, v.Detail)
			}
		}
	}
}

// A client sending its JSON body as text/plain, or with no Content-Type, breaks REQ-1 (a
// deployment that reads the header refuses it, the mock among them), and so does JSON declared
// in a charset other than UTF-8, which the mock refuses too; JSON with a UTF-8 charset, or no
// body at all, does not.
func TestRequestNotSentAsJSONIsAClientViolation(t *testing.T) {
	s := startProxy(t, newMock(t))
	tok := s.login(t, manifest().Users.Member)
	for _, c := range []struct {
		ct, body string
		want     bool
	}{
		{"text/plain;charset=UTF-8", `{}`, true},
		{"", `{}`, true},
		{"application/json; charset=utf-8", `{}`, false},
		{"application/json; charset=latin1", `{}`, true},
		{"", ``, false},
		{"application/json|text/plain", `{}`, true}, // two headers: servers disagree on which counts
	} {
		req, _ := http.NewRequest(http.MethodPost, s.url+pTagsList, strings.NewReader(c.body))
		if c.ct != "" {
			req.Header["Content-Type"] = strings.Split(c.ct, "|")
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		s.do(t, req)
		got := false
		for _, v := range s.proxy.Exchanges(1)[0].Violations {
			got = got || (v.Rule == "REQ-1" && v.Party == proxy.Client)
		}
		if got != c.want {
			t.Errorf("Content-Type %q, body %q: client REQ-1 %v, want %v", c.ct, c.body, got, c.want)
		}
	}
}

// An answer no client can read whole (not the gzip it says, a gzip stream cut short, a body
// broken off) is UP-1, not an answer judged by status and headers only: the reports' and the
// stop line's bodies_unjudged leave it out.
func TestBrokenAnswersAreNotCountedUnjudged(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(`{"error":false,"message":"ok","data":{"tags":[]}}`))
	_ = zw.Close()
	cut := gz.Bytes()[:gz.Len()-8]
	for name, answer := range map[string][]byte{
		"not gzip":       answerWith("Content-Encoding: gzip\r\nContent-Length: 3\r\n", []byte("abc")),
		"gzip cut short": answerWith("Content-Encoding: gzip\r\nContent-Length: "+itoa(len(cut))+"\r\n", cut),
		"broken off":     answerWith("Content-Length: 100\r\n", []byte(`{"error":false`)),
	} {
		p, err := proxy.New(proxy.Config{Upstream: rawUpstream(t, answer)})
		if err != nil {
			t.Fatal(err)
		}
		front := httptest.NewServer(p)
		res, err := http.Post(front.URL+pTagsList, "application/json", strings.NewReader("{}"))
		if err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
		front.Close()
		if r := p.Report(); r.DeploymentViolations != 1 || r.BodiesUnjudged != 0 {
			t.Errorf("%s: report counts %d deployment violations and %d bodies unjudged, want 1 (UP-1) and 0", name, r.DeploymentViolations, r.BodiesUnjudged)
		}
		// The detail is worded for its reader, not in Go's terms.
		if ex := p.Exchanges(1); len(ex) == 1 && len(ex[0].Violations) == 1 {
			if d := ex[0].Violations[0].Detail; strings.Contains(d, "unexpected EOF") || strings.Contains(d, "gzip: ") {
				t.Errorf("%s: the UP-1 detail %q speaks Go", name, d)
			}
		}
	}
}

// An answer past the read-ahead bound that breaks off while it streams is UP-1 too, in the
// journal and the reports, though its verdict header went out before: a deployment cutting off
// large lists must not pass --fail-on-violation.
func TestLargeAnswerBrokenOffWhileStreamingIsUP1(t *testing.T) {
	body := []byte(`{"error":false,"message":"ok","data":"` + strings.Repeat("x", proxy.DefaultMaxAnswer+10))
	up := rawUpstream(t, answerWith("Content-Length: "+itoa(len(body)+100)+"\r\n", body))
	p, err := proxy.New(proxy.Config{Upstream: up})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	t.Cleanup(front.Close)
	res, err := http.Post(front.URL+pTagsList, "application/json", strings.NewReader("{}"))
	if err == nil {
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	r := p.Report()
	if r.DeploymentViolations != 1 || r.BodiesUnjudged != 0 {
		t.Errorf("report counts %d deployment violations and %d bodies unjudged, want 1 (UP-1) and 0", r.DeploymentViolations, r.BodiesUnjudged)
	}
	ex := p.Exchanges(1)
	if len(ex) != 1 || len(ex[0].Violations) != 1 || ex[0].Violations[0].Rule != "UP-1" || !strings.Contains(ex[0].Violations[0].Detail, "broke off after") {
		t.Errorf("journal entry %+v, want UP-1 saying the body broke off", ex[0].Violations)
	}
}

// A credential sent as a path parameter of a path the proxy routes to an operation
// ("/tags/list;password=…") never reaches the journal, in the note that names the path either.
func TestRoutedPathNoteRedactsPathParameters(t *testing.T) {
	s := startProxy(t, newMock(t))
	const secret = "Sup3rSecretPathValue"
	s.post(t, pTagsList+";password="+secret, "", `{}`)
	es := s.proxy.Exchanges(1)
	if len(es) != 1 {
		t.Fatalf("%d exchanges journalled, want 1", len(es))
	}
	raw, _ := json.Marshal(es[0])
	if strings.Contains(string(raw), secret) {
		t.Errorf("the journal holds the path parameter's secret: %s", raw)
	}
	if !strings.Contains(strings.Join(es[0].Notes, " "), "password=") {
		t.Errorf("notes %q do not name the routed path", es[0].Notes)
	}
}

// An upstream header line that is not well-formed (a Set-Cookie with a bare CR, a token with a
// NUL) makes the answer a 502 and the upstream's UP-1, whose wording names the header but never
// quotes the line: it may hold a credential.
func TestMalformedUpstreamHeaderIsNotQuoted(t *testing.T) {
	const secret = "Sup3rSecretCookieValue"
	for _, line := range []string{"Set-Cookie: sid=" + secret + "\rx=y\r\n", "X-Auth-Token: abc\x00" + secret + "\r\n"} {
		p, res, body := exchangeThroughProxy(t, rawUpstream(t, answerWith(line, []byte("{}"))))
		name, _, _ := strings.Cut(line, ":")
		if res.StatusCode != http.StatusBadGateway || !strings.Contains(string(body), name+" header") {
			t.Errorf("%q: %d %s, want 502 naming the %s header", line, res.StatusCode, body, name)
		}
		journal, _ := json.Marshal(p.Exchanges(1))
		if strings.Contains(string(body), secret) || strings.Contains(string(journal), secret) {
			t.Errorf("%q: the secret is quoted: %s / %s", line, body, journal)
		}
	}
}

// The journal's cut of a long body never keeps the start of a credential it falls inside.
func TestJournalCutKeepsNoPartOfACredential(t *testing.T) {
	s := startProxy(t, newMock(t))
	member := manifest().Users.Member
	tok := s.loginThrough(t, `{"email":"`+member.Email+`","password":"`+member.Password+`"}`) // the proxy sees the password
	for pad := 65515; pad <= 65530; pad++ {
		s.post(t, pTagsList, tok, `{"note":"`+strings.Repeat("a", pad)+member.Password+`"}`)
		raw, _ := json.Marshal(s.proxy.Exchanges(1))
		if keep := member.Password[:len(member.Password)-4]; strings.Contains(string(raw), keep) {
			t.Fatalf("pad %d: the journal keeps %q of the password", pad, keep)
		}
	}
}

// An answer with two Content-Length headers is a 502 worded in the proxy's words, not Go's.
func TestTwoContentLengthsWorded(t *testing.T) {
	upstream := rawUpstream(t, []byte("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 50\r\nConnection: close\r\n\r\nhello"))
	p, _ := proxy.New(proxy.Config{Upstream: upstream})
	front := httptest.NewServer(p)
	t.Cleanup(front.Close)
	r, err := http.Post(front.URL+pTagsList, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusBadGateway || !strings.Contains(string(body), "more than one Content-Length header") || strings.Contains(string(body), "got [") {
		t.Errorf("%d %s, want 502 saying the answer has more than one Content-Length", r.StatusCode, body)
	}
}
