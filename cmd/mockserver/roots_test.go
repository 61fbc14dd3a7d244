package main

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// childEnv marks a run of this test binary started by a test below, with the environment
// crypto/x509 reads its roots from once per process.
const childEnv = "MOCKSERVER_ROOTS_CHILD"

// runChild runs the test named test in a new process of this binary with env added.
func runChild(t *testing.T, test string, env ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(append(os.Environ(), childEnv+"=1"), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s in a process with %v: %v\n%s", test, env, err, out)
	}
}

// The images are FROM scratch, with no certificate store: the binary carries public roots to
// fall back on, so the proxy reaches an https deployment signed by a public authority.
func TestPublicRootsWithoutASystemStore(t *testing.T) {
	if os.Getenv(childEnv) == "" {
		runChild(t, t.Name(), "SSL_CERT_FILE=/nonexistent", "SSL_CERT_DIR=/nonexistent")
		return
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil || pool.Equal(x509.NewCertPool()) {
		t.Fatalf("with no system store the roots are %v, %v; want the public roots the binary carries", pool, err)
	}
}

// An https upstream whose certificate the proxy does not trust: the client is told so, and how
// to trust a private authority (SSL_CERT_FILE), which then works.
func TestProxyTrustsAPrivateAuthorityGivenBySSLCertFile(t *testing.T) {
	if url := os.Getenv("UPSTREAM_URL"); os.Getenv(childEnv) != "" {
		if status, msg := cardsListThroughProxy(t, url); status != http.StatusUnauthorized {
			t.Fatalf("with SSL_CERT_FILE naming the upstream's authority: %d %s, want the mock's 401 forwarded", status, msg)
		}
		return
	}
	m, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewTLSServer(m)
	t.Cleanup(up.Close)
	status, msg := cardsListThroughProxy(t, up.URL)
	if status != http.StatusBadGateway || !strings.Contains(msg, "does not trust the certificate") || !strings.Contains(msg, "SSL_CERT_FILE") {
		t.Errorf("an untrusted upstream certificate: %d %q, want 502 saying so and naming SSL_CERT_FILE", status, msg)
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: up.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	runChild(t, t.Name(), "SSL_CERT_FILE="+ca, "UPSTREAM_URL="+up.URL)
}

// cardsListThroughProxy posts {} to cards/list through a proxy of upstream, without a token.
func cardsListThroughProxy(t *testing.T, upstream string) (int, string) {
	t.Helper()
	prox, stop := startProxyCmd(t, nil, "--upstream", upstream)
	defer stop()
	res, err := http.Post(prox+"/services/operations/v1/operations/cards/list", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body struct{ Message string }
	_ = json.NewDecoder(res.Body).Decode(&body)
	return res.StatusCode, body.Message
}

// SSL_CERT_FILE or SSL_CERT_DIR naming nothing readable is warned of at the proxy's start:
// otherwise Go falls back to the system's roots in silence, and the first request to a
// private-CA upstream fails far from the cause. One that can be read says nothing.
func TestProxyWarnsOfUnreadableCertEnv(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"SSL_CERT_FILE": filepath.Join(dir, "missing.pem")}, "SSL_CERT_FILE cannot be read"},
		{map[string]string{"SSL_CERT_FILE": notPEM}, "SSL_CERT_FILE holds no PEM certificate"},
		{map[string]string{"SSL_CERT_DIR": filepath.Join(dir, "nope") + ":" + filepath.Join(dir, "nada")}, "SSL_CERT_DIR names no folder"},
		{map[string]string{"SSL_CERT_DIR": dir}, ""},
		{map[string]string{}, ""},
	} {
		var buf strings.Builder
		warnCertEnv(envOf(tt.env), slog.New(slog.NewTextHandler(&buf, nil)))
		switch {
		case tt.want == "" && buf.Len() > 0:
			t.Errorf("with %v: warned %q, want nothing", tt.env, buf.String())
		case tt.want != "" && !strings.Contains(buf.String(), tt.want):
			t.Errorf("with %v: logged %q, want %q", tt.env, buf.String(), tt.want)
		}
	}
}
