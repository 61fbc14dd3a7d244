package conformance_test

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/conformance"
	mf "github.com/opsapi/mocktoolkit/conformance/manifest"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// The manifest of a mock guarded by --admin-token is read with CONFORMANCE_ADMIN_TOKEN; without
// it the suite stops at start with a clear error.
func TestLoadManifestFromAGuardedMock(t *testing.T) {
	h, err := mockserver.New(mockserver.Config{AdminToken: "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := context.Background()

	if _, err := (conformance.Config{}).LoadManifest(ctx, srv.URL); err == nil || !strings.Contains(err.Error(), "set "+conformance.EnvAdminToken) {
		t.Fatalf("manifest from a guarded mock without the admin token: %v, want a hint to set %s", err, conformance.EnvAdminToken)
	}
	m, err := conformance.Config{AdminToken: "s3cret"}.LoadManifest(ctx, srv.URL)
	if err != nil {
		t.Fatalf("load manifest with the admin token: %v", err)
	}
	if !strings.Contains(m.Users.Member.Email, "@") {
		t.Errorf("member e-mail %q", m.Users.Member.Email)
	}
}

// CONFORMANCE_ADMIN_TOKEN reaches the config.
func TestLoadConfigReadsTheAdminToken(t *testing.T) {
	cfg, err := conformance.LoadConfig(func(k string) string {
		if k == conformance.EnvAdminToken {
			return "tok"
		}
		return ""
	})
	if err != nil || cfg.AdminToken != "tok" {
		t.Fatalf("LoadConfig: %+v, %v", cfg, err)
	}
}

// CONFORMANCE_BASE_URL is a scheme, a host and a base path: a query or fragment would end up
// before every operation's path, and the error would be the deployment's HTML.
func TestLoadConfigRefusesABaseURLWithAQuery(t *testing.T) {
	for _, v := range []string{"http://127.0.0.1:4010/?x=1", "http://127.0.0.1:4010#frag", "ftp://x", "127.0.0.1:4010", "http://u:p@127.0.0.1:4010"} {
		_, err := conformance.LoadConfig(func(k string) string {
			if k == conformance.EnvBaseURL {
				return v
			}
			return ""
		})
		if err == nil || !strings.Contains(err.Error(), conformance.EnvBaseURL) {
			t.Errorf("%s=%q: %v, want a refusal naming it", conformance.EnvBaseURL, v, err)
		}
	}
	if _, err := conformance.LoadConfig(func(k string) string {
		if k == conformance.EnvBaseURL {
			return "https://staging.example.com/api"
		}
		return ""
	}); err != nil {
		t.Errorf("a base path: %v", err)
	}
}

// A manifest file with a key the schema does not know (a misspelt board_id) is refused, naming
// the key, instead of being read without it.
func TestLoadManifestRefusesUnknownKeys(t *testing.T) {
	bad := strings.Replace(string(mf.Example), `"board_id"`, `"bord_id"`, 1)
	if bad == string(mf.Example) {
		t.Fatal("the example has no board_id; update this test")
	}
	path := filepath.Join(t.TempDir(), "manifest.json")
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := conformance.Config{ManifestFile: path}.LoadManifest(context.Background(), "")
	if err == nil || !strings.Contains(err.Error(), "bord_id") {
		t.Fatalf("LoadManifest of a manifest with bord_id: %v, want an error naming bord_id", err)
	}
}

// Once the manifest is loaded, no report shows one of its credentials, whatever field or text
// carries it: a flow replayed a password bound into a title, and the failure printed it.
func TestReportsHideTheManifestsCredentials(t *testing.T) {
	path := filepath.Join(t.TempDir(), "manifest.json")
	if err := os.WriteFile(path, mf.Example, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := conformance.Config{ManifestFile: path}.LoadManifest(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	pw := m.Users.Member.Password
	if len(pw) < 4 {
		t.Fatalf("the example's member password %q is too short to test with", pw)
	}
	for _, text := range []string{`{"title": "` + pw + `"}`, "the title was " + pw} {
		if got := conformance.Redact(text); strings.Contains(got, pw) {
			t.Errorf("Redact(%q) = %q: the member's password shows", text, got)
		}
	}
}

// A manifest is read from a regular file only, of at most manifest.MaxFileSize: a FIFO hung the
// run before its first spec, and /dev/zero was read until memory ran out.
func TestManifestFileIsARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "m.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, path := range []string{fifo, "/dev/zero", dir} {
		if _, err := (conformance.Config{ManifestFile: path}).LoadManifest(context.Background(), ""); err == nil {
			t.Errorf("LoadManifest(%s): no error", path)
		}
		if _, err := mf.CheckFile(path); err == nil {
			t.Errorf("CheckFile(%s): no error", path)
		}
	}
}

// A failure shows a deployment's answer without its control characters: ESC, NUL and BEL in
// an answer reached the operator's terminal and the CI log as they were, and bidirectional
// controls (U+202E) reordered how the failure around them reads.
func TestDescribeWritesControlCharactersAsEscapes(t *testing.T) {
	ex := &conformance.Exchange{Op: conformance.OpTagsList, Status: 500, Body: []byte("\x00\x07\x1b[31mRED\x1b[0m <b>\xff</b> \u202eSSAP\u2066\nnext")}
	got := ex.Describe()
	if !strings.Contains(got, `\u202eSSAP\u2066`) {
		t.Errorf("Describe = %q, want the bidirectional controls written as escapes", got)
	}
	for _, c := range []string{"\x00", "\x07", "\x1b", "\xff", "\u202e", "\u2066"} {
		if strings.Contains(got, c) {
			t.Errorf("Describe holds %q:\n%s", c, got)
		}
	}
	if !strings.Contains(got, `\x1b[31mRED`) || !strings.Contains(got, "\nnext") {
		t.Errorf("Describe = %q, want the escapes written out and line ends kept", got)
	}
}

// A failure shows the numbers of an answer as the deployment wrote them: an id past 2^53 keeps
// its digits (float64 showed 9007199254740993 as 9007199254740992, another record's id).
func TestDescribeKeepsBigIdsAsWritten(t *testing.T) {
	ex := &conformance.Exchange{Op: conformance.OpTagsList, Status: 200, Body: []byte(`{"error":false,"message":"ok","data":{"tags":[{"id":9007199254740993}]}}`)}
	if got := ex.Describe(); !strings.Contains(got, "9007199254740993") {
		t.Errorf("Describe shows the id otherwise:\n%s", got)
	}
}

// CONFORMANCE_PUSH_WAIT is a duration; anything else is refused naming the variable.
func TestLoadConfigReadsThePushWait(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == conformance.EnvPushWait {
				return v
			}
			return ""
		}
	}
	if cfg, err := conformance.LoadConfig(env("")); err != nil || cfg.PushWait != 20*time.Second {
		t.Errorf("default: %v, %v; want 20s", cfg.PushWait, err)
	}
	if cfg, err := conformance.LoadConfig(env("90s")); err != nil || cfg.PushWait != 90*time.Second {
		t.Errorf("90s: %v, %v", cfg.PushWait, err)
	}
	for _, v := range []string{"20", "-1s", "soon", "2h"} {
		if _, err := conformance.LoadConfig(env(v)); err == nil || !strings.Contains(err.Error(), conformance.EnvPushWait) {
			t.Errorf("%q: %v, want a refusal naming %s", v, err, conformance.EnvPushWait)
		}
	}
}

// -check-manifest answers alone: one line and the exit status, no testing PASS or FAIL after it
// (which read as a suite verdict).
func TestCheckManifestAnswersAlone(t *testing.T) {
	_, here, _, _ := runtime.Caller(0) // the binary may run in another directory (the self-test's)
	dir := filepath.Dir(here)
	if _, err := os.Stat(filepath.Join(dir, "manifest", "manifest.example.json")); err != nil {
		t.Skip("the source tree is not beside this binary (a -trimpath build, the suite image)")
	}
	for _, tt := range []struct {
		file, want string
		code       int
	}{
		{filepath.Join(dir, "manifest", "manifest.example.json"), "holds everything a whole run needs", 0},
		{filepath.Join(dir, "doc_test.go"), "conformance: manifest", 1},
	} {
		out, err := exec.Command(os.Args[0], "-check-manifest", tt.file).CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if code != tt.code || len(lines) != 1 || !strings.Contains(lines[0], tt.want) {
			t.Errorf("-check-manifest %s: exit %d, output %q; want exit %d and one line saying %q", tt.file, code, out, tt.code, tt.want)
		}
	}
}
