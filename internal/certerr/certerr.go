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

// legacyName tells a certificate that names its host only in the Common Name, which Go (as
// browsers) no longer reads: the fix is the certificate's, not the URL's.
func legacyName(host x509.HostnameError) bool {
	c := host.Certificate
	return c != nil && len(c.DNSNames) == 0 && len(c.IPAddresses) == 0 && c.Subject.CommonName != ""
}

// Reason says in a few words why the certificate was not trusted, by its kind, without the
// x509 package's text.
func Reason(err error) string {
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	var unknown x509.UnknownAuthorityError
	switch {
	case errors.As(err, &host) && legacyName(host):
		return "it names its host only in the legacy Common Name field, which clients no longer read"
	case errors.As(err, &host):
		return "it is not issued for the host in the URL"
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		return "it has expired or is not valid yet"
	case errors.As(err, &invalid):
		return "it cannot be used for this server"
	case errors.As(err, &unknown):
		return "it is signed by an authority this machine does not trust"
	}
	return "it could not be verified"
}

// Advice is what the proxy and the suite add to an untrusted certificate's error, by its kind.
func Advice(err error) string {
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	switch {
	case errors.As(err, &host) && legacyName(host):
		return "Issue the certificate with the host in its Subject Alternative Names (SANs)."
	case errors.As(err, &host):
		return "The certificate does not name the host in the URL: use a host name the certificate is issued for."
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		return "The certificate has expired or is not valid yet: renew it, or check this machine's clock."
	case errors.As(err, &invalid):
		return "The certificate cannot be used for this server: check how it was issued."
	}
	return "If it is signed by a private certificate authority, set SSL_CERT_FILE to that authority's PEM file."
}
