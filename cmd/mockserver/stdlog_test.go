package main

import (
	"bytes"
	"log"
	"log/slog"
	"os"
	"strings"
	"testing"
)

// What net/http writes to Go's standard logger reaches the command's log in its words, never
// an upstream's stray bytes (which held a token and a password) nor a credential.
func TestStdLogIsRoutedAndRedacted(t *testing.T) {
	var out bytes.Buffer
	routeStdLog(slog.New(slog.NewTextHandler(&out, nil)))
	t.Cleanup(func() { log.SetOutput(os.Stderr); log.SetFlags(log.LstdFlags) })
	log.Printf("Unsolicited response received on idle HTTP channel starting with %q; err=<nil>", `{"token":"UpstreamTok998877665544","password":"UpPw77abcQ"}`)
	log.Printf("http: Accept error: accept tcp: too many open files; retrying in 5ms password=Hunter2Secret")
	got := out.String()
	for _, secret := range []string{"UpstreamTok998877665544", "UpPw77abcQ", "Hunter2Secret"} {
		if strings.Contains(got, secret) {
			t.Errorf("the log quotes %q: %s", secret, got)
		}
	}
	if !strings.Contains(got, "outside any answer") || !strings.Contains(got, "too many open files") || strings.Contains(got, "Unsolicited") {
		t.Errorf("log %q: want both lines in the command's log, the stray bytes in its words", got)
	}
}
