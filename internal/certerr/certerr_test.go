package certerr

import (
	"crypto/x509"
	"fmt"
	"strings"
	"testing"
)

// Each kind of untrusted certificate gets the advice that fits it: SSL_CERT_FILE only for an
// unknown authority, which is what it can fix.
func TestAdviceByKind(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want string
	}{
		{x509.UnknownAuthorityError{}, "SSL_CERT_FILE"},
		{x509.HostnameError{Host: "api.example"}, "host name the certificate is issued for"},
		{x509.CertificateInvalidError{Reason: x509.Expired}, "expired"},
		{x509.CertificateInvalidError{Reason: x509.NotAuthorizedToSign}, "cannot be used"},
	} {
		err := fmt.Errorf("Get https://api.example: %w", tt.err)
		if !Untrusted(err) {
			t.Errorf("%T is not told untrusted", tt.err)
		}
		if got := Advice(err); !strings.Contains(got, tt.want) {
			t.Errorf("Advice(%T) = %q, want it to say %q", tt.err, got, tt.want)
		}
		if _, host := tt.err.(x509.HostnameError); host && strings.Contains(Advice(err), "SSL_CERT_FILE") {
			t.Errorf("a host mismatch is advised SSL_CERT_FILE, which cannot fix it")
		}
	}
}
