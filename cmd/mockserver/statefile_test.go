package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A FIFO given as --state-file is refused before it is opened, with a message naming the file:
// opening a FIFO waits for a writer forever, so the start would hang (D180).
func TestStateFileFIFOIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo.json")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--state-file", path}, noEnv, io.Discard, io.Discard)
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") || !strings.Contains(err.Error(), path) {
			t.Errorf("run with a FIFO state file: %v, want an error naming the file and saying it is not a regular file", err)
		}
	case <-time.After(5 * time.Second):
		cancel()
		_ = os.WriteFile(path, nil, 0o600) // unblock the reader
		t.Fatal("the start hangs on a FIFO state file")
	}
}

// A state file that does not decode is reported in our words, naming the file, the line and
// the field, never in Go's (D187).
func TestStateFileProblemsNameLineAndField(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"cards":"x"}`, "line 1: The cards field must be an array."},
		{"{\n  \"users\": [],\n  \"colour\": 1\n}", `line 3: The colour field is not`},
		{"{\n  \"users\": [\n", "the file ends before its JSON does"},
		{"{\n  \"users\": [}\n", "line 2: not valid JSON"},
		{`{}`, "the snapshot does not load: it holds no users"},
		{`[]`, "The state file must be a JSON object, not an array."},
		{"\xff{}", "the file is not UTF-8 text"},
	} {
		file := filepath.Join(t.TempDir(), "bad.json")
		if err := os.WriteFile(file, []byte(tc.body), 0o600); err != nil {
			t.Fatal(err)
		}
		err := run(context.Background(), []string{"--addr", "127.0.0.1:0", "--state-file", file}, noEnv, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "json: cannot") || strings.Contains(err.Error(), "json: unknown") || strings.Contains(err.Error(), "Go struct") || strings.Contains(err.Error(), "load state") {
			t.Errorf("state file %q: %v, want the file and %q, in our words", tc.body, err, tc.want)
		}
	}
}

// A --state-file or a proxy output in a folder the command may not write is refused at start:
// the save at stop would fail there, and the session (or the report) be lost. /proc exists and
// nobody, root included, may make a file in it.
func TestOutputInAnUnwritableFolderIsRefused(t *testing.T) {
	if !isDir("/proc") {
		t.Skip("no /proc")
	}
	env := noEnv
	err := run(t.Context(), []string{"--addr", "127.0.0.1:0", "--state-file", "/proc/mock-state.json"}, env, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "cannot be written") {
		t.Errorf("a state file in /proc: %v, want a refusal saying the folder cannot be written", err)
	}
	err = run(t.Context(), []string{"proxy", "--addr", "127.0.0.1:0", "--upstream", "http://127.0.0.1:1", "--report-json", "/proc/report.json"}, env, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "cannot be written") {
		t.Errorf("a report in /proc: %v, want a refusal saying the folder cannot be written", err)
	}
}

// --now at Go's zero time (0001-01-01T00:00:00Z) is refused with the range --now takes: the
// mock read it as no --now at all and silently started at the system time.
func TestNowAtTheZeroTimeIsRefused(t *testing.T) {
	err := run(t.Context(), []string{"--addr", "127.0.0.1:0", "--now", "0001-01-01T00:00:00Z"}, noEnv, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "from 0001-01-01T00:00:01Z") {
		t.Errorf("--now 0001-01-01T00:00:00Z: %v, want a refusal naming the range --now takes", err)
	}
}

// A --state-file that is a symbolic link is loaded and saved through it: the save replaces the
// file the link names, and the link stays a link (the save renamed a new file over the link,
// which left the session in a plain file beside the one the user keeps).
func TestStateFileThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real", "state.json")
	if err := os.MkdirAll(filepath.Dir(real), 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("symlink: %v", err)
	}
	url, stop := startMock(t, "--state-file", link)
	token := loginMember(t, url)
	postJSON(t, url+"/services/operations/v1/operations/tags/create", token, map[string]any{"name": "kept through the link"})
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link is no longer a link after the save: %v %v", fi, err)
	}
	b, err := os.ReadFile(real)
	if err != nil || !strings.Contains(string(b), "kept through the link") {
		t.Errorf("the file the link names does not hold the session (%v)", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*", ".mockserver-state-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// What a mock started with --max-records saves, it starts from again: the seeded world itself
// holds more than a small cap (D70), so a save and a restart with the same flags must load it.
func TestStateFileSavedPastMaxRecordsLoadsBack(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	_, stop := startMock(t, "--max-records", "50", "--state-file", file)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	url, stop := startMock(t, "--max-records", "50", "--state-file", file)
	defer func() { _ = stop() }()
	token := loginMember(t, url)
	a := postJSON(t, url+"/services/operations/v1/operations/tags/create", token, map[string]any{"name": "past the cap"})
	if msg, _ := a["message"].(string); a["error"] != true || !strings.Contains(msg, "--max-records") {
		t.Errorf("a create in a project past the cap: %v, want a refusal naming --max-records", a)
	}
}

// `mockserver fixtures` prints the manifest of the world the same flags serve: with a
// --state-file, the snapshot's users, not the default seed's (a CI script reading credentials
// this way logged in with the wrong ones).
func TestFixturesReadsTheStateFile(t *testing.T) {
	m, err := mockserver.New(mockserver.Config{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(m.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"fixtures", "--state-file", file}, noEnv, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Users struct{ Member struct{ Email string } }
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if want := m.Manifest().Users.Member.Email; got.Users.Member.Email != want {
		t.Errorf("fixtures --state-file prints member %q, want the snapshot's %q", got.Users.Member.Email, want)
	}
}

// A state file starting with a byte order mark is refused saying so, as PUT /__mock/state
// does, not as JSON that cannot start with 'ï'.
func TestStateFileWithAByteOrderMark(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bom.json")
	if err := os.WriteFile(file, []byte("\xef\xbb\xbf{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := run(context.Background(), []string{"--state-file", file, "--addr", "127.0.0.1:0"}, noEnv, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "byte order mark") || strings.Contains(err.Error(), "ï") {
		t.Errorf("a state file with a BOM: %v, want it named", err)
	}
}

// The state file keeps the default world only, and a stop that drops named worlds says so: a
// team running workers in named worlds lost their records at a restart without a word.
func TestStopSaysNamedWorldsAreNotSaved(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	logs := &syncBuffer{b: &bytes.Buffer{}}
	url, stop := startCmdOutput(t, nil, logs, "--addr", "127.0.0.1:0", "--state-file", file)
	res, err := http.Post(url+"/__worlds/worker-1/__mock/reset", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if _, err := stop(); err != nil {
		t.Fatal(err)
	}
	if got := logs.String(); !strings.Contains(got, "named worlds were not saved") || !strings.Contains(got, "named_worlds=1") {
		t.Errorf("the stop's log says nothing of the named world it dropped:\n%s", got)
	}
}

// A --state-file kept in the --scenarios directory is a snapshot, not a scenario: the mock
// started, saved it there at stop, and refused its own next start with the same flags (the file
// read as a scenario of 1866 problems).
func TestStateFileInTheScenariosDirectory(t *testing.T) {
	dir := t.TempDir()
	launch, err := os.ReadFile("../../fixtures/scenarios/launch.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "launch.yaml"), launch, 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"--scenarios", dir, "--state-file", filepath.Join(dir, "world.json")}
	for range 2 {
		url, stop := startMock(t, args...)
		res, err := http.Post(url+"/__mock/reset", "application/json", strings.NewReader(`{"scenario": "launch"}`))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("reset to launch: %d", res.StatusCode)
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
	}
}

// A scenario renamed while the mock runs leaves a state file naming a scenario the next start
// does not have: the records it acknowledged load (the manifest from the default scenario,
// checked against them), where the start was refused.
func TestStateFileOfARenamedScenarioLoads(t *testing.T) {
	dir, state := t.TempDir(), filepath.Join(t.TempDir(), "w.json")
	launch, err := os.ReadFile("../../fixtures/scenarios/launch.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "launch.yaml"), launch, 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"--scenarios", dir, "--state-file", state}
	url, stop := startMock(t, args...)
	res, err := http.Post(url+"/__mock/reset", "application/json", strings.NewReader(`{"scenario": "launch"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	tag := postJSON(t, url+"/services/operations/v1/operations/tags/create", loginMember(t, url), map[string]any{"name": "important-work"})
	if tag["error"] != false {
		t.Fatalf("tag create: %v", tag)
	}
	renamed := strings.Replace(string(launch), "name: launch\n", "name: launch-v2\n", 1)
	if err := os.WriteFile(filepath.Join(dir, "launch-v2.yaml"), []byte(renamed), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "launch.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	url, stop = startMock(t, args...)
	defer func() { _ = stop() }()
	tags := postJSON(t, url+"/services/operations/v1/operations/tags/list", loginMember(t, url), map[string]any{})
	if !strings.Contains(fmt.Sprint(tags["data"]), "important-work") {
		t.Errorf("the acknowledged tag is not there after the restart: %v", tags["data"])
	}
}

// An empty state file is one with no world saved yet: a file mounted on its own must exist
// before the first start (Docker makes a directory of a missing source), and an empty one was
// refused. The mock starts from the seed and saves its world there at stop.
func TestEmptyStateFileStartsFromTheSeed(t *testing.T) {
	file := filepath.Join(t.TempDir(), "world.json")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, stop := startMock(t, "--state-file", file)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(file); err != nil || fi.Size() == 0 {
		t.Errorf("the world was not saved to the empty state file: %v", err)
	}
}
