package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// The journal is bounded in bytes as well as entries (D64): large headers and bodies are cut
// with a marker, and the oldest entries go when the total would pass 8 MiB.
func TestJournalIsBoundedInBytes(t *testing.T) {
	m := newMock(t, mockserver.Config{RateLimit: 100000})
	big := strings.Repeat("h", 60<<10)
	body := strings.Repeat("b", 100<<10)
	for range 300 {
		m.ctl(http.MethodPost, "/no/such/path", body, "X-Big", big, "X-Other", "kept").wantStatus(t, http.StatusNotFound)
	}
	a := m.ctl(http.MethodGet, "/__mock/requests", nil).wantStatus(t, http.StatusOK)
	if len(a.raw) > 9<<20 {
		t.Errorf("the journal answers %d bytes, want at most about 8 MiB", len(a.raw))
	}
	entries := a.list(t, "requests")
	if len(entries) == 0 || len(entries) >= 300 {
		t.Fatalf("journal holds %d entries", len(entries))
	}
	req := entries[0]["request"].(map[string]any)
	text, _ := req["body"].(string)
	if !strings.Contains(text, "[cut: the first ") || !strings.Contains(text, " bytes of 102400 or more]") || len(text) > 17<<10 {
		t.Errorf("a 100 KiB body is kept as %d bytes ending %q", len(text), text[max(0, len(text)-60):])
	}
	headers := req["headers"].(map[string]any)
	if h, _ := headers["X-Big"].(string); len(h) > 2<<10 || !strings.HasSuffix(h, "[cut]") {
		t.Errorf("a 60 KiB header is kept as %d bytes", len(h))
	}
	if headers["X-Other"] != "kept" {
		t.Errorf("small headers lost: %v", headers["X-Other"])
	}
}

// Credentials in forms, multipart bodies, authenticate's code, query strings and headers such
// as Proxy-Authorization and X-Api-Key never reach the journal (D64).
func TestJournalRedactsEveryFormat(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodPost, pAuthenticate+"?access_token=QueryTok1", "email=a%40b.co&password=FormPass1&session_token=FormTok1",
		"Content-Type", "application/x-www-form-urlencoded", "Proxy-Authorization", "Basic ProxyCred1", "X-Api-Key", "ApiKey1", "X-Auth-Token", "AuthTok1")
	m.ctl(http.MethodPost, pAuthenticate, `{"email":"a@b.co","password":"JsonPass1","code":"OtpCode1","token":"JsonTok1"}`)
	m.ctl(http.MethodPost, "/no/such/path", "--xx\r\nContent-Disposition: form-data; name=\"client_secret\"\r\n\r\nPartSecret1\r\n--xx--", "Content-Type", "multipart/form-data; boundary=xx")
	m.ctl(http.MethodPost, "/no/such/path", "refresh_token: TextTok1\n")
	raw := string(m.ctl(http.MethodGet, "/__mock/requests", nil).wantStatus(t, http.StatusOK).raw)
	for _, secret := range []string{"QueryTok1", "FormPass1", "FormTok1", "ProxyCred1", "ApiKey1", "AuthTok1", "JsonPass1", "OtpCode1", "JsonTok1", "PartSecret1", "TextTok1"} {
		if strings.Contains(raw, secret) {
			t.Errorf("the journal holds %q", secret)
		}
	}
	if !strings.Contains(raw, `"Proxy-Authorization":"Basic [redacted]"`) {
		t.Errorf("Proxy-Authorization lost its scheme: %s", truncate(raw))
	}
}
