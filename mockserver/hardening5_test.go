package mockserver_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A request whose body breaks off before its Content-Length (the client or a middlebox gave
// up) is refused as unreadable, like a chunked body cut short, and nothing is written: the mock
// acknowledged a tag from 15 of the 100 bytes announced.
func TestBodyShorterThanAnnouncedIsRefused(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	tok := m.login(m.manifest.Users.Member)
	before := len(m.post("/services/operations/v1/operations/tags/list", tok, map[string]any{}).data()["tags"].([]any))
	c, err := net.Dial("tcp", strings.TrimPrefix(m.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _ = c.Write([]byte("POST /services/operations/v1/operations/tags/create HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
		"Authorization: Bearer " + tok + "\r\nContent-Length: 100\r\n\r\n{\"name\":\"half\"}"))
	_ = c.(*net.TCPConn).CloseWrite()
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest {
		t.Errorf("a body of 15 of the 100 bytes announced: %d, want 400", res.StatusCode)
	}
	after := len(m.post("/services/operations/v1/operations/tags/list", tok, map[string]any{}).data()["tags"].([]any))
	if after != before {
		t.Errorf("tags %d → %d: a request that never arrived whole was carried out", before, after)
	}
	doc := m.ctl(http.MethodGet, "/__mock/flow", nil).wantStatus(t, http.StatusOK).body
	if note, _ := doc["note"].(string); !strings.Contains(note, "broke off") {
		t.Errorf("the flow's note %q does not say a broken request was left out", note)
	}
}

// A fraction however close to a whole number, or however small, is refused as not an integer
// (D8), in those words: not as past 64 bits, nor as below the field's minimum.
func TestFractionsAreWordedAsNotIntegers(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	tok := m.login(m.manifest.Users.Member)
	want := "The %s field must be an integer."
	for _, c := range []struct {
		path, field, value string
	}{
		{"/services/operations/v1/operations/comments/list", "page", "1.0000000000000000001"},
		{"/services/operations/v1/operations/comments/list", "page", "1e-400"},
		{"/services/operations/v1/operations/comments/list", "page", "-1e-400"},
		{"/services/operations/v1/operations/comments/list", "page", "1.5"},
		{"/services/operations/v1/operations/tags/create", "position", "1e-400"},
		{"/services/operations/v1/operations/tags/create", "position", "2.0000000000000000001"},
		{"/services/operations/v1/operations/tags/create", "position", "1e-99999999999999999999"},
	} {
		body := `{"card_id":` + strconv.FormatInt(m.manifest.Operations.CardID, 10) + `,"name":"p","` + c.field + `":` + c.value + `}`
		a := m.post(c.path, tok, body).wantStatus(t, http.StatusUnprocessableEntity)
		errs, _ := a.body["errors"].(map[string]any)
		got, _ := errs[c.field].([]any)
		if len(got) != 1 || got[0] != fmt.Sprintf(want, c.field) {
			t.Errorf("%s %s=%s: %v, want [%q]", c.path, c.field, c.value, got, fmt.Sprintf(want, c.field))
		}
	}
}

// A whole number is an integer however it is written (D8): zero with an exponent past int64,
// one written with a thousand zeros before its digit.
func TestWholeNumbersInAnyFormAreIntegers(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	tok := m.login(m.manifest.Users.Member)
	for value, want := range map[string]float64{
		"0e99999999999999999999":                   0,
		"0." + strings.Repeat("0", 999) + "3e1000": 3,
	} {
		a := m.post("/services/operations/v1/operations/tags/create", tok, `{"name":"w","position":`+value+`}`).wantStatus(t, http.StatusOK)
		tag, _ := a.data()["tag"].(map[string]any)
		if tag["position"] != want {
			t.Errorf("position %.30s… stored as %v, want %v", value, tag["position"], want)
		}
	}
}

// A credential sent as a JSON member's name is redacted in the flow, and one sent as a header's
// name in the journal, as they are where they stand as values (D200).
func TestCredentialsAsNamesAreRedacted(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	p := "/__worlds/names"
	creds := m.manifest.Users.Member
	tok := m.post(p+"/v1/authenticate", "", map[string]any{"email": creds.Email, "password": creds.Password}).wantStatus(t, 200).data()["token"].(string)
	m.post(p+"/services/operations/v1/operations/tags/create", tok, map[string]any{"name": "k", creds.Password: 1})
	m.ctl(http.MethodPost, p+"/services/operations/v1/operations/tags/list", map[string]any{}, "Content-Type", "application/json", "X-"+tok, "1")
	flowDoc := string(m.ctl(http.MethodGet, p+"/__mock/flow", nil).wantStatus(t, 200).raw)
	if strings.Contains(flowDoc, creds.Password) {
		t.Errorf("the flow holds the password as a member name:\n%s", flowDoc)
	}
	journal := string(m.ctl(http.MethodGet, p+"/__mock/requests?limit=10", nil).wantStatus(t, 200).raw)
	if strings.Contains(journal, tok) {
		t.Errorf("the journal holds the token as a header name:\n%s", journal)
	}
}

// A call answered 429 because a window was spent is left out of the flow with a note: a replay
// demanding it failed every deployment not throttled at that moment, the mock included.
func TestFlowLeavesOutRateLimitedCalls(t *testing.T) {
	m := newMock(t, mockserver.Config{RateLimit: 2})
	p := "/__worlds/rl"
	tok := m.post(p+"/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, 200).data()["token"].(string)
	for range 2 {
		m.post(p+"/services/operations/v1/operations/tags/list", tok, map[string]any{}).wantStatus(t, 200)
	}
	m.post(p+"/services/operations/v1/operations/tags/list", tok, map[string]any{}).wantStatus(t, http.StatusTooManyRequests)
	doc := m.ctl(http.MethodGet, p+"/__mock/flow", nil).wantStatus(t, 200).body
	steps, _ := doc["steps"].([]any)
	note, _ := doc["note"].(string)
	if len(steps) != 3 || !strings.Contains(note, "1 call answered 429") {
		t.Errorf("%d steps, note %q: want the login and two lists, and a note on the 429", len(steps), note)
	}
}

// A request to one of the API's paths whose world cannot be served (a bad name, two names, a
// world a cross-site load may not make, a world that does not exist) still carries the
// rate-limit headers every answer of the API's paths carries.
func TestWorldRefusalsOnAPIPathsCarryRateLimitHeaders(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	list := "/services/operations/v1/operations/tags/list"
	for _, c := range []struct {
		name, path string
		headers    []string
	}{
		{"a bad world name", "/__worlds/bad!name" + list, nil},
		{"two world names", list, []string{"X-Mock-World", "a", "X-Mock-World", "b"}},
		{"a cross-site load", "/__worlds/newxs" + list, []string{"Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "no-cors"}},
	} {
		a := m.ctl(http.MethodPost, c.path, map[string]any{}, c.headers...)
		if a.status < 400 || a.header.Get("X-RateLimit-Limit") == "" || a.header.Get("X-RateLimit-Remaining") == "" {
			t.Errorf("%s: %d with headers %v, want a refusal carrying the rate-limit headers", c.name, a.status, a.header)
		}
	}
}

// A path that encodes a '/' (tags%2Flist) is no route of the API: 404 naming the path as sent,
// in the default world, under a world's prefix and with the world header; decoded, it was
// served as tags/list under a name the API does not have (D146). Other escapes still decode.
func TestEncodedSlashIsNoRoute(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	tok := m.login(m.manifest.Users.Member)
	m.post("/__worlds/w1/services/operations/v1/operations/tags/list", "", map[string]any{}).wantStatus(t, 401) // makes w1
	for _, path := range []string{
		"/services/operations/v1/operations/tags%2Flist",
		"/services/operations/v1/operations/tags%2flist",
		"/__worlds/w1/services/operations/v1/operations/tags%2Flist",
		"/__mock%2Fclock",
	} {
		a := m.post(path, tok, map[string]any{}).wantStatus(t, 404)
		if !strings.Contains(string(a.raw), strings.TrimPrefix(path, "/__worlds/w1")) {
			t.Errorf("%s: %s, want the path named as sent", path, a.raw)
		}
	}
	m.post("/services/operations/v1/operations/t%61gs/list", tok, map[string]any{}).wantStatus(t, 200)
}
