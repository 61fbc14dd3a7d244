package conformance_test

// The suite image is FROM scratch: no system certificate store, and the suite runs against https
// deployments. The test binary carries Mozilla's roots as a fallback, used only where the system
// has none; SSL_CERT_FILE and SSL_CERT_DIR still choose the roots (a private CA) when set.
import _ "golang.org/x/crypto/x509roots/fallback"
