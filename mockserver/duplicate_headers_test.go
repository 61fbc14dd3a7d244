package mockserver_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A header the mock reads once, sent twice, is never read by picking one: two Authorization
// headers authenticate nobody (servers and proxies disagree on which counts), and two code
// preferences that differ are refused as a misuse of Prefer, naming both.
func TestDuplicatedHeadersAreNotPickedFrom(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	tok := m.login(m.manifest.Users.Member)
	req, _ := http.NewRequest(http.MethodPost, m.url+"/services/operations/v1/operations/tags/list", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Add("Authorization", "Bearer "+tok)
	req.Header.Add("Authorization", "Bearer "+tok)
	if res, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else if res.Body.Close(); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("two Authorization headers: %s, want 401", res.Status)
	}
	req, _ = http.NewRequest(http.MethodPost, m.url+"/services/domains/v1/domain-cart/remove", strings.NewReader(`{"session_token":"x","cart_item_id":1}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Add("Prefer", "code=409")
	req.Header.Add("Prefer", "code=500")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b strings.Builder
	_, _ = io.Copy(&b, res.Body)
	if res.StatusCode != http.StatusBadRequest || !strings.Contains(b.String(), "409 and 500") {
		t.Errorf("two code preferences: %d %s, want 400 naming both", res.StatusCode, b.String())
	}
}
