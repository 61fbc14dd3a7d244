package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// --state-file: the world is saved at graceful stop and loaded at the next start, so a tag
// created before a restart is still there after it (D65).
func TestStateFileSurvivesARestart(t *testing.T) {
	file := filepath.Join(t.TempDir(), "world.json")
	url, stop := startMock(t, "--state-file", file, "--now", "2026-06-01T09:00:00Z")
	token := loginMember(t, url)
	postJSON(t, url+"/services/operations/v1/operations/tags/create", token, map[string]any{"name": "survivor"})
	if err := stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("no state file after a graceful stop: %v", err)
	}

	url, stop = startMock(t, "--state-file", file)
	defer stop()
	tags := postJSON(t, url+"/services/operations/v1/operations/tags/list", token, map[string]any{})
	if !strings.Contains(toJSON(tags), `"survivor"`) {
		t.Errorf("the tag is gone after a restart: %s", toJSON(tags))
	}
}

// --state-file keeps the world's clock when it is the world's own (set or frozen): a clock
// frozen for screenshots is frozen at the same instant after a restart; --now given at the
// restart starts the clock instead; a clock never moved is not kept (D65).
func TestStateFileKeepsTheClock(t *testing.T) {
	file := filepath.Join(t.TempDir(), "world.json")
	type clock struct {
		Now    string `json:"now"`
		Frozen bool   `json:"frozen"`
	}
	url, stop := startMock(t, "--state-file", file)
	postJSON(t, url+"/__mock/clock", "", map[string]any{"set": "2031-05-05T05:05:05Z", "freeze": true})
	if err := stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	saved, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(saved), `"clock":{"frozen":true,"now":"2031-05-05T05:05:05Z"}`) {
		t.Errorf("the state file keeps no clock at the second it was set (%v): …%s", err, saved[max(0, len(saved)-120):])
	}
	url, stop = startMock(t, "--state-file", file)
	var got clock
	getJSON(t, url+"/__mock/clock", &got)
	if got != (clock{"2031-05-05T05:05:05Z", true}) {
		t.Errorf("the clock after a restart: %+v, want frozen at 2031-05-05T05:05:05Z", got)
	}
	postJSON(t, url+"/__mock/clock", "", map[string]any{"freeze": false})
	if err := stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	url, stop = startMock(t, "--state-file", file, "--now", "2030-01-01T00:00:00Z")
	getJSON(t, url+"/__mock/clock", &got)
	if got.Frozen || !strings.HasPrefix(got.Now, "2030-01-01T00:00:0") {
		t.Errorf("the clock of a restart with --now: %+v, want running from 2030-01-01T00:00:00Z", got)
	}
	_ = stop()

	plain := filepath.Join(t.TempDir(), "plain.json")
	_, stop = startMock(t, "--state-file", plain)
	_ = stop()
	if raw, err := os.ReadFile(plain); err != nil || strings.Contains(string(raw), `"clock"`) {
		t.Errorf("the state file of a clock never moved keeps one (%v)", err)
	}
}

// A state file's clock is read by the controls' rules and words (D65, D148, D187): a bad one
// stops the start naming clock.now, never a Go time layout.
func TestStateFileClockProblemsAreWorded(t *testing.T) {
	file := filepath.Join(t.TempDir(), "world.json")
	_, stop := startMock(t, "--state-file", file)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(file)
	for clock, says := range map[string]string{
		`{"now":"x"}`:                         "clock.now must be an RFC 3339 date-time",
		`{"now":"2030-01-01T00:00:00+24:00"}`: "clock.now must be an RFC 3339 date-time",
		`{"NOW":"2030-01-01T00:00:00Z"}`:      "clock.NOW is not known",
	} {
		bad := strings.TrimSuffix(strings.TrimSpace(string(raw)), "}") + `,"clock":` + clock + "}"
		if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second) // a mock that starts serves until then
		defer cancel()
		err := run(ctx, []string{"--addr", "127.0.0.1:0", "--state-file", file}, noEnv, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), says) || strings.Contains(err.Error(), "2006") || strings.Contains(err.Error(), "request body") {
			t.Errorf("a state file with the clock %s: %v, want it to say %q", clock, err, says)
		}
	}
}

func toJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestSteerFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		bad  bool
	}{
		{name: "a fixed latency", args: []string{"--latency", "250ms"}},
		{name: "a ranged latency from the environment", env: map[string]string{"MOCK_LATENCY": "100-400"}},
		{name: "a latency that is no duration", args: []string{"--latency", "soon"}, bad: true},
		{name: "origins and an admin token", args: []string{"--cors-origins", "https://a.example, https://b.example", "--admin-token", "t"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := envOf(tt.env)
			_, err := parseFlags(tt.args, getenv, io.Discard)
			if (err != nil) != tt.bad {
				t.Errorf("parseFlags(%q): %v, want error %v", tt.args, err, tt.bad)
			}
		})
	}
	opts, _ := parseFlags([]string{"--cors-origins", "https://a.example, https://b.example", "--latency", "100ms-200ms"}, noEnv, io.Discard)
	if len(opts.steer.corsOrigins) != 2 || opts.steer.latency.Max != 200*time.Millisecond {
		t.Errorf("parsed %+v", opts.steer)
	}
}

// A state file the mock cannot start from (broken JSON, a missing directory, a directory) is a
// flag value that cannot be used: exit 2, naming the flag, or the variable it came from.
func TestBrokenStateFileFailsTheStart(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "world.json")
	if err := os.WriteFile(broken, []byte(`{"users": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{broken, filepath.Join(dir, "missing", "s.json"), dir} {
		err := run(context.Background(), []string{"--addr", "127.0.0.1:0", "--state-file", path}, noEnv, io.Discard, io.Discard)
		var exit *exitError
		if !errors.As(err, &exit) || exit.code != 2 || !strings.HasPrefix(err.Error(), "--state-file "+path+": ") {
			t.Errorf("--state-file %s: %v, want exit 2 naming the flag", path, err)
		}
		err = run(context.Background(), []string{"--addr", "127.0.0.1:0"}, envOf(map[string]string{"MOCK_STATE_FILE": path}), io.Discard, io.Discard)
		if !errors.As(err, &exit) || exit.code != 2 || !strings.HasPrefix(err.Error(), "MOCK_STATE_FILE (--state-file) "+path+": ") {
			t.Errorf("MOCK_STATE_FILE=%s: %v, want exit 2 naming the variable", path, err)
		}
	}
}

// MOCK_ADMIN_TOKEN or MOCK_CORS_ORIGINS set but empty (a compose file's ${TOKEN} with the
// secret missing) is refused as the empty flag is: read as unset, it left the controls open
// and CORS at *, with no sign of it. Unset, they keep their defaults.
func TestEmptyGuardVariablesAreRefused(t *testing.T) {
	for _, name := range []string{"MOCK_ADMIN_TOKEN", "MOCK_CORS_ORIGINS"} {
		_, err := parseFlags(nil, envOf(map[string]string{name: ""}), io.Discard)
		var exit *exitError
		if !errors.As(err, &exit) || exit.code != 2 || !strings.HasPrefix(err.Error(), name+" (--") || !strings.Contains(err.Error(), "empty") {
			t.Errorf("%s set empty: %v, want exit 2 naming it", name, err)
		}
	}
	opts, err := parseFlags(nil, noEnv, io.Discard)
	if err != nil || opts.steer.adminToken != "" || len(opts.steer.corsOrigins) != 1 || opts.steer.corsOrigins[0] != "*" {
		t.Errorf("both unset: %+v, %v; want open controls and CORS *", opts.steer, err)
	}
	// A flag given wins over its variable set empty, as over any value of it.
	opts, err = parseFlags([]string{"--admin-token", "s3cret", "--cors-origins", "http://localhost:5173"}, envOf(map[string]string{"MOCK_ADMIN_TOKEN": "", "MOCK_CORS_ORIGINS": ""}), io.Discard)
	if err != nil || opts.steer.adminToken != "s3cret" || len(opts.steer.corsOrigins) != 1 {
		t.Errorf("flags over empty variables: %+v, %v", opts.steer, err)
	}
}

// A state file mounted on its own (docker run -v ./world.json:/data/world.json) cannot be
// replaced by a rename (EBUSY): the stop failed, "the world was not saved", and the session
// was lost. It is written in place instead, and loads back.
func TestStateFileMountedOnItsOwnIsWrittenInPlace(t *testing.T) {
	file := filepath.Join(t.TempDir(), "world.json")
	_, stop := startMock(t, "--state-file", file, "--now", "2026-06-01T09:00:00Z")
	if err := stop(); err != nil { // the file exists, as a mounted one does
		t.Fatalf("stop: %v", err)
	}
	old := rename
	rename = func(from, to string) error {
		if to == file {
			return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.EBUSY}
		}
		return old(from, to)
	}
	t.Cleanup(func() { rename = old })
	url, stop := startMock(t, "--state-file", file)
	postJSON(t, url+"/services/operations/v1/operations/tags/create", loginMember(t, url), map[string]any{"name": "mounted"})
	if err := stop(); err != nil {
		t.Fatalf("stop with a state file a rename cannot replace: %v", err)
	}
	url, stop = startMock(t, "--state-file", file)
	defer stop()
	if tags := postJSON(t, url+"/services/operations/v1/operations/tags/list", loginMember(t, url), map[string]any{}); !strings.Contains(toJSON(tags), `"mounted"`) {
		t.Errorf("the tag is gone after a restart: %s", toJSON(tags))
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(file), ".mockserver-state-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// A state file mounted on its own that the mock may not write (-v ./world.json:/data/world.json
// owned by another user, or :ro) is refused at start, as a directory it may not write is: it
// started, and the stop failed to save, losing the session.
func TestStateFileMountedOnItsOwnUnwritableIsRefusedAtStart(t *testing.T) {
	file := filepath.Join(t.TempDir(), "world.json")
	_, stop := startMock(t, "--state-file", file, "--now", "2026-06-01T09:00:00Z")
	if err := stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	info := filepath.Join(t.TempDir(), "mountinfo")
	line := "1234 100 0:52 /host/world.json " + strings.ReplaceAll(file, " ", `\040`) + " rw,relatime - ext4 /dev/sda1 rw\n"
	if err := os.WriteFile(info, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	oldInfo, oldOpen := mountInfo, openForWriting
	mountInfo = info
	openForWriting = func(string) error { return &os.PathError{Op: "open", Path: file, Err: syscall.EACCES} }
	t.Cleanup(func() { mountInfo, openForWriting = oldInfo, oldOpen })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second) // a mock that starts serves until then
	defer cancel()
	err := run(ctx, []string{"--addr", "127.0.0.1:0", "--state-file", file}, noEnv, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "mounted on its own") || !strings.Contains(err.Error(), "permission denied") {
		t.Errorf("start with a state file mounted on its own that cannot be written: %v, want it refused naming why", err)
	}
	openForWriting = oldOpen // writable: it starts
	url, stop := startMock(t, "--state-file", file)
	if url == "" {
		t.Error("a writable file mounted on its own was refused")
	}
	_ = stop()
}
