package mockserver_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// send makes one request with a Host and headers ("Name", "value", ...) and returns the status
// and body.
func send(t *testing.T, method, url, host, body string, headers ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// worldNames lists the worlds the mock holds.
func (m *mock) worldNames(t *testing.T) string {
	t.Helper()
	var names []string
	for _, w := range m.ctl(http.MethodGet, "/__mock/worlds", nil).list(t, "worlds") {
		names = append(names, w["name"].(string))
	}
	return strings.Join(names, ",")
}

// Requests the mock refuses never make a world, so they never evict a test worker's (D141):
// an attacker's page loading images from /__worlds/evilN/…, a rebinding Host, a missing admin
// token, an origin --cors-origins does not list.
func TestRefusedRequestsMakeNoWorld(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxWorlds: 2, AdminToken: "adm", CORSOrigins: []string{"https://app.example.com"}})
	admin := []string{mockserver.AdminTokenHeader, "adm"}
	for _, w := range []string{"w1", "w2"} {
		if st, body := send(t, "GET", m.url+"/__worlds/"+w+"/__mock/clock", "", "", admin...); st != 200 {
			t.Fatalf("worker world %s: %d %s", w, st, body)
		}
	}
	attacks := []struct {
		name, method, path, host string
		headers                  []string
		want                     int
	}{
		{"cross-site image", "GET", "/", "", []string{"Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "no-cors", "Sec-Fetch-Dest", "image"}, 403},
		{"cross-site form post", "POST", "/services/operations/v1/operations/tags/list", "", []string{"Origin", "https://app.example.com", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "navigate"}, 403},
		{"rebinding Host on the API", "POST", "/services/operations/v1/operations/tags/list", "rebind.attacker.net:4010", nil, 403},
		{"rebinding Host on a control", "GET", "/__mock/clock", "rebind.attacker.net", admin, 403},
		{"no admin token", "POST", "/__mock/reset", "", nil, 401},
		{"unlisted origin on the API", "POST", "/services/operations/v1/operations/tags/list", "", []string{"Origin", "https://evil.attacker.net", "Sec-Fetch-Mode", "cors", "Sec-Fetch-Site", "cross-site"}, 403},
	}
	for _, a := range attacks {
		for i := range 8 {
			path := "/__worlds/evil" + string(rune('0'+i)) + a.path
			st, body := send(t, a.method, m.url+path, a.host, "{}", a.headers...)
			if st != a.want {
				t.Errorf("%s: %s %s answered %d %s, want %d", a.name, a.method, path, st, body, a.want)
			}
		}
		if got := m.ctl(http.MethodGet, "/__mock/worlds", nil, admin...).list(t, "worlds"); len(got) != 3 || got[1]["name"] != "w1" || got[2]["name"] != "w2" {
			t.Fatalf("%s: the mock holds %v, want default, w1, w2", a.name, got)
		}
	}
	// A page's API call (CORS) from a listed origin still makes a world: that is the feature.
	st, body := send(t, "POST", m.url+"/__worlds/app/services/operations/v1/operations/tags/list", "", "{}",
		"Origin", "https://app.example.com", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "cors")
	if st != 401 {
		t.Errorf("a listed origin's call: %d %s, want the API's 401", st, body)
	}
	// A link from the app under test on another port of localhost (same site) may open a new
	// world's page.
	st, body = send(t, "GET", m.url+"/__worlds/linked/__mock/clock", "", "", append(admin, "Sec-Fetch-Site", "same-site", "Sec-Fetch-Mode", "navigate")...)
	if st != 200 {
		t.Errorf("a same-site link: %d %s, want 200", st, body)
	}
}

// A world busy with a request is never evicted, so its acknowledged write is never lost; when
// every world is busy a new one is refused with 503 naming --max-worlds (D141).
func TestBusyWorldIsNotEvicted(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxWorlds: 1})
	member := m.manifest.Users.Member
	token := m.login(member) // default world
	_ = token
	st, login := send(t, "POST", m.url+"/__worlds/a"+pAuthenticate, "", `{"email":"`+member.Email+`","password":"`+member.Password+`"}`, "Content-Type", "application/json")
	if st != 200 {
		t.Fatalf("login in world a: %d %s", st, login)
	}
	tok := login[strings.Index(login, `"token":"`)+9:]
	tok = tok[:strings.Index(tok, `"`)]

	// A slow client sends a tag create in world a: the body arrives in two parts.
	pr, pw := io.Pipe()
	req, _ := http.NewRequest("POST", m.url+"/__worlds/a"+pTagsCreate, pr)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	var wg sync.WaitGroup
	var created int
	wg.Add(1)
	go func() {
		defer wg.Done()
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			created = res.StatusCode
			res.Body.Close()
		}
	}()
	_, _ = pw.Write([]byte(`{"name":`))
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		rows := m.ctl(http.MethodGet, "/__mock/worlds", nil).list(t, "worlds")
		if len(rows) == 2 && rows[1]["requests"].(float64) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the slow request never reached world a")
		}
	}
	st, body := send(t, "GET", m.url+"/__worlds/b/__mock/clock", "", "")
	if st != http.StatusServiceUnavailable || !strings.Contains(body, "--max-worlds") || !strings.Contains(body, `"data":[]`) {
		t.Errorf("a new world while the only one is busy: %d %s, want 503 shape (a) naming --max-worlds", st, body)
	}
	_, _ = pw.Write([]byte(`"kept-across-eviction"}`))
	_ = pw.Close()
	wg.Wait()
	if created != 200 {
		t.Fatalf("the slow create answered %d", created)
	}
	st, list := send(t, "POST", m.url+"/__worlds/a"+pTagsList, "", "{}", "Authorization", "Bearer "+tok, "Content-Type", "application/json")
	if st != 200 || !strings.Contains(list, "kept-across-eviction") {
		t.Errorf("the acknowledged tag is gone from world a: %d %s", st, truncate(list))
	}
	// Idle now: the next new world takes its place.
	if st, body := send(t, "GET", m.url+"/__worlds/b/__mock/clock", "", ""); st != 200 {
		t.Errorf("a new world once a is idle: %d %s", st, body)
	}
}

// DELETE /__mock/worlds?name=default resets the default world (D100, D147).
func TestDeleteDefaultWorldResets(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	token := m.login(m.manifest.Users.Member)
	m.post(pTagsCreate, token, map[string]any{"name": "before-reset"}).wantStatus(t, 200)
	a := m.ctl(http.MethodDelete, "/__mock/worlds?name=default", nil).wantStatus(t, 200)
	if a.field("reset") != "default" {
		t.Errorf("answer %s, want it to say the default world was reset", a.raw)
	}
	m.post(pTagsList, token, nil).wantStatus(t, 401) // tokens go with the world
	token = m.login(m.manifest.Users.Member)
	if list := m.post(pTagsList, token, nil).wantStatus(t, 200); strings.Contains(string(list.raw), "before-reset") {
		t.Errorf("the default world kept its records: %s", truncate(string(list.raw)))
	}
}

// A careless worker naming two worlds in one request acts on neither: two X-Mock-World headers
// answer 400 and make no world; two ?name= in a delete answer 422 and delete nothing.
func TestTwoWorldSelectorsActOnNone(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	a := m.ctl(http.MethodPost, "/__mock/reset", nil, "X-Mock-World", "a", "X-Mock-World", "b").wantStatus(t, 400)
	a.wantShape(t, "a")
	if names := m.worldNames(t); names != "default" {
		t.Errorf("worlds %s after two headers, want only default", names)
	}
	m.ctl(http.MethodPost, "/__worlds/a/__mock/reset", nil).wantStatus(t, 200)
	m.ctl(http.MethodDelete, "/__mock/worlds?name=a&name=default", nil).wantFieldError(t, "name")
	if names := m.worldNames(t); !strings.Contains(names, "a") {
		t.Errorf("worlds %s, want a kept", names)
	}
}

// An escaped '/' in a world name is part of the name (refused), never a separator: the prefix
// is split on the path as sent (D146).
func TestWorldNameEscapedSlash(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	st, body := send(t, "GET", m.url+"/__worlds/a%2F__mock/clock", "", "")
	if st != 400 || !strings.Contains(body, "world name") {
		t.Errorf("/__worlds/a%%2F__mock/clock: %d %s, want 400 naming the world name rule", st, body)
	}
	// A name valid once unescaped is refused too, saying to send it as written (it said the
	// name "abc" broke a rule "abc" keeps).
	st, body = send(t, "GET", m.url+"/__worlds/%61bc/__mock/clock", "", "")
	if st != 400 || !strings.Contains(body, `send \"abc\"`) || strings.Contains(body, "not valid") {
		t.Errorf("/__worlds/%%61bc/__mock/clock: %d %s, want 400 saying to send \"abc\"", st, body)
	}
	// A name of letters no world name takes, escaped or sent as raw UTF-8 (a client may do
	// either), is quoted both ways without saying which the client sent.
	for _, path := range []string{"/__worlds/%C3%A9/__mock/clock", "/__worlds/\u00e9/__mock/clock"} {
		st, body = rawGet(t, m.url, path)
		if st != 400 || !strings.Contains(body, `\"é\" (\"%C3%A9\" escaped)`) || strings.Contains(body, "sent as") {
			t.Errorf("%q: %d %s, want 400 quoting the name and its escaped form", path, st, body)
		}
	}
	if names := m.worldNames(t); names != "default" {
		t.Errorf("worlds %s, want only default", names)
	}
}

// rawGet sends GET path over a plain connection, bytes as written (raw UTF-8 included), and
// returns the status and body.
func rawGet(t *testing.T, base, path string) (int, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", path); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// Every world has the same passwords, so wrong guesses spread over worlds count together: 40
// wrong passwords for one e-mail over 8 worlds throttle that e-mail from that client in any
// world, a ninth included (D144). Another e-mail is not throttled by them.
func TestLoginThrottleSpansWorlds(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member, admin := m.manifest.Users.Member, m.manifest.Users.Superadmin
	login := func(world, email, password string) int {
		st, _ := send(t, "POST", m.url+"/__worlds/"+world+pAuthenticate, "", `{"email":"`+email+`","password":"`+password+`"}`, "Content-Type", "application/json")
		return st
	}
	m.ctl(http.MethodPost, "/__worlds/ahead/__mock/clock", map[string]any{"advance_seconds": 3600}).wantStatus(t, 200)
	for w := range 8 {
		for i := range 5 {
			if st := login("guess"+string(rune('a'+w)), member.Email, "wrong-"+string(rune('0'+i))); st != 401 && st != 429 {
				t.Fatalf("wrong password: %d", st)
			}
		}
	}
	if st := login("fresh", member.Email, member.Password); st != 429 {
		t.Errorf("the right password in a ninth world after 40 wrong ones: %d, want 429", st)
	}
	if st := login("fresh", admin.Email, admin.Password); st != 200 {
		t.Errorf("another e-mail from the same client: %d, want 200", st)
	}
	// A world whose clock was moved on an hour (before the guesses) shares the throttle all the
	// same: it runs on real time, not on any world's clock.
	if st := login("ahead", member.Email, member.Password); st != 429 {
		t.Errorf("the right password in a world an hour ahead after 40 wrong ones: %d, want 429", st)
	}
	// A reset sent by this client lifts its throttle (D62).
	m.ctl(http.MethodPost, "/__worlds/fresh/__mock/reset", map[string]any{}).wantStatus(t, 200)
	if st := login("fresh", member.Email, member.Password); st != 200 {
		t.Errorf("after the client's reset: %d, want 200", st)
	}
}

// A Go handle on a world is not a request in flight: it never pins the world (D141).
func TestWorldHandleDoesNotPin(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{MaxWorlds: 1, Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b", "a"} {
		if _, err := srv.World(name); err != nil {
			t.Fatalf("World(%q): %v", name, err)
		}
	}
}
