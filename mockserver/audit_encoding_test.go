package mockserver_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
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
	for _, e := range m.ctl(http.MethodGet, "/__mock/requests", nil).wantStatus(t, 200).list(t, "requests") {
		req := e["request"].(map[string]any)
		if enc := fmt.Sprint(req["headers"].(map[string]any)["Content-Encoding"]); enc == "gzip" && !strings.Contains(fmt.Sprint(req["body"]), "not kept") {
			t.Errorf("the journal kept the gzip body as %q, want a placeholder", req["body"])
		}
	}
}
