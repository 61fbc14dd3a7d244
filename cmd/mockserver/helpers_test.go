package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// startMock runs the command with args until the returned stop is called; it returns the base
// URL the mock listens on.
func startMock(t *testing.T, args ...string) (string, func() error) {
	t.Helper()
	return startCmd(t, nil, append([]string{"--addr", "127.0.0.1:0"}, args...)...)
}

// startCmd runs the command with args and env until the returned stop is called (it cancels the
// command's context, as SIGTERM does, and returns run's error); it returns the base URL of the
// "listening on" line the command prints first.
func startCmd(t *testing.T, env map[string]string, args ...string) (string, func() error) {
	t.Helper()
	url, stop := startCmdOutput(t, env, io.Discard, args...)
	return url, func() error { _, err := stop(); return err }
}

// startCmdOutput is startCmd with the command's log written to stderr; stop also returns what
// the command printed after its first line.
func startCmdOutput(t *testing.T, env map[string]string, stderr io.Writer, args ...string) (string, func() (string, error)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	outR, outW := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, args, envOf(env), outW, stderr)
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	if !lines.Scan() {
		cancel()
		t.Fatalf("the command printed nothing: %v", <-errc)
	}
	_, url, ok := strings.Cut(lines.Text(), "listening on ")
	if !ok {
		cancel()
		t.Fatalf("first line %q names no address", lines.Text())
	}
	url, _, _ = strings.Cut(url, " ")
	rest := make(chan string, 1)
	go func() { b, _ := io.ReadAll(outR); rest <- string(b) }()
	return url, func() (string, error) {
		cancel()
		err := <-errc
		return <-rest, err
	}
}

// loginMember reads the fixture manifest of the mock at url and logs its member in.
func loginMember(t *testing.T, url string) string {
	t.Helper()
	var manifest struct {
		Users struct {
			Member struct{ Email, Password string }
		}
	}
	res, err := http.Get(url + "/__mock/fixtures")
	if err != nil {
		t.Fatal(err)
	}
	_ = json.NewDecoder(res.Body).Decode(&manifest)
	res.Body.Close()
	login := postJSON(t, url+"/v1/authenticate", "", map[string]any{"email": manifest.Users.Member.Email, "password": manifest.Users.Member.Password})
	return login["data"].(map[string]any)["token"].(string)
}

func postJSON(t *testing.T, url, token string, body any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return out
}

// answer is what a client got for a request: its status and JSON body, or the error.
type answer struct {
	status int
	body   map[string]any
	err    error
}

// postAsync posts an empty JSON object to url in the background; the channel gets the answer.
func postAsync(url string) <-chan answer {
	done := make(chan answer, 1)
	go func() {
		res, err := http.Post(url, "application/json", strings.NewReader("{}"))
		if err != nil {
			done <- answer{err: err}
			return
		}
		defer res.Body.Close()
		var body map[string]any
		err = json.NewDecoder(res.Body).Decode(&body)
		done <- answer{status: res.StatusCode, body: body, err: err}
	}()
	return done
}

// noEnv is an environment that sets nothing.
var noEnv environ = func(string) (string, bool) { return "", false }

// envOf is an environment that sets the variables of m, each to its value (empty included).
func envOf(m map[string]string) environ {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}
