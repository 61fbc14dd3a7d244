package mockserver_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A request body sent with a Content-Encoding other than identity is refused as a wrong
// Content-Type is (D6, D184): 400 shape (a) naming the header, never read as JSON; the journal
// keeps a placeholder, not the encoded bytes redaction cannot read.
func TestRequestContentEncodingIsRefused(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	token := m.login(m.manifest.Users.Member)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	fmt.Fprintf(zw, `{"name":"zipped","password":"hunter2"}`)
	_ = zw.Close()
	for enc, body := range map[string]string{"gzip": gz.String(), "br": `{"name":"plain"}`} {
		a := m.ctl(http.MethodPost, pTagsCreate, body, "Authorization", "Bearer "+token, "Content-Encoding", enc)
		a.wantStatus(t, http.StatusBadRequest)
		a.wantShape(t, "a")
		if msg := fmt.Sprint(a.body["message"]); !strings.Contains(msg, "Content-Encoding") {
			t.Errorf("%s: message %q does not name the header", enc, msg)
		}
	}
	m.ctl(http.MethodPost, pTagsCreate, `{"name":"as-is"}`, "Authorization", "Bearer "+token, "Content-Encoding", "identity").wantStatus(t, http.StatusOK)

	// Two headers, identity first: the message names what was refused, not the allowed value.
	req, _ := http.NewRequest(http.MethodPost, m.url+pTagsCreate, strings.NewReader(`{"name":"two"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Add("Content-Encoding", "identity")
	req.Header.Add("Content-Encoding", "gzip")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(raw), "gzip") {
		t.Errorf("Content-Encoding identity then gzip: %d %s, want 400 naming gzip", res.StatusCode, raw)
	}
	for _, e := range m.ctl(http.MethodGet, "/__mock/requests", nil).wantStatus(t, 200).list(t, "requests") {
		req := e["request"].(map[string]any)
		if enc := fmt.Sprint(req["headers"].(map[string]any)["Content-Encoding"]); enc == "gzip" && !strings.Contains(fmt.Sprint(req["body"]), "not kept") {
			t.Errorf("the journal kept the gzip body as %q, want a placeholder", req["body"])
		}
	}
}
