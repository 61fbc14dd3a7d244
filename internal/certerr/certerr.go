// Package certerr tells a TLS error about trusting a server's certificate, which a private
// certificate authority missing from the client's roots causes, from one of the network: the
// proxy and the suite name SSL_CERT_FILE then.
package certerr

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
)

// Hint is what the proxy and the suite add to an untrusted certificate's error.
const Hint = "If it is signed by a private certificate authority, set SSL_CERT_FILE to that authority's PEM file."

// Untrusted tells an error of verifying a server's certificate: an unknown authority, a name
// or a validity the certificate does not hold.
func Untrusted(err error) bool {
	var verify *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	return errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &host) || errors.As(err, &invalid)
}
