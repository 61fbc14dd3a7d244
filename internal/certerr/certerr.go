// Package certerr tells a TLS error about trusting a server's certificate from one of the
// network, and says what to do about it by its kind: a private certificate authority missing
// from the client's roots (SSL_CERT_FILE), a host the certificate does not name, or a
// certificate expired or not yet valid.
package certerr

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
)

// Untrusted tells an error of verifying a server's certificate: an unknown authority, a name
// or a validity the certificate does not hold.
func Untrusted(err error) bool {
	var verify *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	return errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &host) || errors.As(err, &invalid)
}

// Advice is what the proxy and the suite add to an untrusted certificate's error, by its kind.
func Advice(err error) string {
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	switch {
	case errors.As(err, &host):
		return "The certificate does not name the host in the URL: use a host name the certificate is issued for."
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		return "The certificate has expired or is not valid yet: renew it, or check this machine's clock."
	case errors.As(err, &invalid):
		return "The certificate cannot be used for this server: check how it was issued."
	}
	return "If it is signed by a private certificate authority, set SSL_CERT_FILE to that authority's PEM file."
}
