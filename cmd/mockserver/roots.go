package main

// The mock image is FROM scratch: no system certificate store. The proxy forwards to https
// deployments, so the binary carries Mozilla's roots as a fallback, used only where the system
// has none; SSL_CERT_FILE and SSL_CERT_DIR still choose the roots (a private CA) when set.
import (
	"crypto/x509"
	"log/slog"
	"os"
	"path/filepath"

	_ "golang.org/x/crypto/x509roots/fallback"
)

// warnCertEnv warns at the proxy's start when SSL_CERT_FILE or SSL_CERT_DIR names nothing it
// can read: Go then quietly trusts the system's (or the built-in) authorities only, and the
// first request to an upstream signed by a private authority fails far from the cause.
func warnCertEnv(getenv environ, logger *slog.Logger) {
	if f := getenv.get("SSL_CERT_FILE"); f != "" {
		pem, err := os.ReadFile(f)
		switch {
		case err != nil:
			logger.Warn("SSL_CERT_FILE cannot be read; the proxy trusts the system's certificate authorities only", "file", f, "err", err)
		case !x509.NewCertPool().AppendCertsFromPEM(pem):
			logger.Warn("SSL_CERT_FILE holds no PEM certificate; the proxy trusts the system's certificate authorities only", "file", f)
		}
	}
	if d := getenv.get("SSL_CERT_DIR"); d != "" {
		for _, dir := range filepath.SplitList(d) {
			if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
				return
			}
		}
		logger.Warn("SSL_CERT_DIR names no folder that exists; the proxy trusts the system's certificate authorities only", "dir", d)
	}
}
