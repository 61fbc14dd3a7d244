package main

// The mock image is FROM scratch: no system certificate store. The proxy forwards to https
// deployments, so the binary carries Mozilla's roots as a fallback, used only where the system
// has none; SSL_CERT_FILE and SSL_CERT_DIR still choose the roots (a private CA) when set.
import _ "golang.org/x/crypto/x509roots/fallback"
