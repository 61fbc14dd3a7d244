package proxy_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/proxy"
)

// An answer whose gzip body decodes past the proxy's body limit passes through unchecked,
// and the journal's note names the size limit, not the encoding, as the reason (D95).
func TestGzipBombNoteNamesTheSizeLimit(t *testing.T) {
	bomb := bytes.Repeat([]byte(" "), proxy.DefaultMaxAnswer*2)
	s := startProxy(t, gzipped(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(bomb)
	})))
	req, _ := http.NewRequest(http.MethodPost, s.url+pCardsList, strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Encoding", "gzip")
	s.do(t, req)
	notes := strings.Join(s.proxy.Exchanges(1)[0].Notes, " | ")
	if strings.Contains(notes, "not one the proxy decodes") || !strings.Contains(notes, "bytes once decoded") {
		t.Errorf("notes %q, want the size limit named as the reason", notes)
	}
}
