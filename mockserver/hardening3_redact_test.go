package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A client sending credentials in camelCase, kebab or upper case never has them shown by the
// journal (D142).
func TestJournalRedactsAnyCaseStyle(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodPost, "/oauth/token", `{"accessToken":"s3-acc","refreshToken":"s3-ref","idToken":"s3-id","privateKey":"s3-pk","nested":{"clientSecret":"s3-cs"}}`,
		"X-API-KEY", "s3-hdr", "ID-TOKEN", "s3-hdr2")
	m.ctl(http.MethodPost, "/form", "grant_type=refresh&refreshToken=s3-form", "Content-Type", "application/x-www-form-urlencoded")
	raw := string(m.ctl(http.MethodGet, "/__mock/requests", nil).wantStatus(t, 200).raw)
	for _, secret := range []string{"s3-acc", "s3-ref", "s3-id", "s3-pk", "s3-cs", "s3-hdr", "s3-hdr2", "s3-form"} {
		if strings.Contains(raw, secret) {
			t.Errorf("the journal shows the credential %q", secret)
		}
	}
	if !strings.Contains(raw, "accessToken") {
		t.Errorf("the journal lost the field names: %s", truncate(raw))
	}
}
