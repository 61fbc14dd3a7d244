package spec_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// Helpers of the tests that hold the document against the in-process mock.

// mockNow pins the clock of the mocks these tests start.
var mockNow = time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)

// startMock runs the in-process mock of the default world and returns its URL and manifest.
func startMock(t *testing.T) (string, fixtures.Manifest) {
	t.Helper()
	h, err := mockserver.New(mockserver.Config{Now: mockNow})
	if err != nil {
		t.Fatalf("mockserver.New: %v", err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL, fixtures.Build(fixtures.DefaultSeed, mockNow).Manifest
}

// postJSON sends body to the mock and decodes the answer.
func postJSON(t *testing.T, url, token, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(res.Body); err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
		t.Fatalf("%s: answer is not a JSON object: %v\n%s", url, err, buf.Bytes())
	}
	return res.StatusCode, v
}

func loginAs(t *testing.T, base string, c fixtures.Credentials) string {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"email": c.Email, "password": c.Password})
	status, v := postJSON(t, base+pAuthenticate, "", string(b))
	data, _ := v["data"].(map[string]any)
	token, _ := data["token"].(string)
	if status != http.StatusOK || token == "" {
		t.Fatalf("login %s: %d %v", c.Email, status, v)
	}
	return token
}

func jsonf(format string, args ...any) string {
	return strings.TrimSpace(fmt.Sprintf(format, args...))
}
