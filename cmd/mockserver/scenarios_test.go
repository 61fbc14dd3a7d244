package main

import (
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
)

// A directory of scenario files with several broken ones, and a FIFO named like a scenario,
// stops the start at once naming every problem of every file; nothing of it loads (D145).
func TestScenarioDirReportsEveryProblem(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"good.yaml":  "name: good\n",
		"one.yaml":   "cards:\n  - title: [a]\n",
		"two.yaml":   "tags:\n  - name: t\n    position: \"7\"\n",
		"three.json": `{"name": "three", "name": "again"}`,
		"alpha.yaml": "name: alpha\n",
		"Alpha.yaml": "name: Alpha\n", // one name with alpha.yaml: a reset could not tell them apart
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := parseFlags([]string{"--scenarios", dir}, noEnv, io.Discard)
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the start hangs on a FIFO named like a scenario")
	}
	if err == nil {
		t.Fatal("a directory with broken scenario files loaded")
	}
	for _, want := range []string{"one.yaml: line 2: cards[0]: title", "two.yaml: line 3: tags[0]: position", "three.json: line 1: name is given twice", "pipe.yaml: not a regular file", `both name the scenario "alpha"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q\nwant it to hold %q", err, want)
		}
	}
}

// The --scenarios directory is watched while the mock runs: a file added later can be named by
// a reset, an edited one resets to what it holds now, and a change that does not load keeps
// the last set that did.
func TestScenarioDirChangesAreTakenWhileRunning(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tagScenario := func(name, tag string) string {
		return "name: " + name + "\nbase: empty\ntags:\n  - ref: t\n    name: " + tag + "\n"
	}
	write("first.yaml", tagScenario("first", "Before"))
	url, stop := startMock(t, "--scenarios", dir)
	defer func() { _ = stop() }()
	reset := func(scenario string) (int, map[string]any) {
		res, err := http.Post(url+"/__mock/reset", "application/json", strings.NewReader(`{"scenario":"`+scenario+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var body map[string]any
		_ = json.NewDecoder(res.Body).Decode(&body)
		return res.StatusCode, body
	}
	tags := func() string {
		token := loginMember(t, url)
		return fmt.Sprint(postJSON(t, url+"/services/operations/v1/operations/tags/list", token, map[string]any{})["data"])
	}
	write("second.yaml", tagScenario("second", "Added"))
	write("first.yaml", tagScenario("first", "Edited"))
	deadline := time.Now().Add(5 * time.Second)
	for st, _ := reset("second"); st != http.StatusOK && time.Now().Before(deadline); st, _ = reset("second") {
		time.Sleep(200 * time.Millisecond)
	}
	if got := tags(); !strings.Contains(got, "Added") {
		t.Errorf("after adding second.yaml, a reset to it lists tags %s", got)
	}
	if st, body := reset("first"); st != http.StatusOK || !strings.Contains(tags(), "Edited") {
		t.Errorf("after editing first.yaml, a reset to it: %d %v, tags %s", st, body, tags())
	}
	write("broken.yaml", "tags: [")
	time.Sleep(1500 * time.Millisecond)
	if st, body := reset("first"); st != http.StatusOK {
		t.Errorf("with a broken file added, a reset to the last good scenario: %d %v", st, body)
	}
	// A scenario added while the directory does not load is missing: the refusal says why.
	write("third.yaml", tagScenario("third", "Later"))
	time.Sleep(1500 * time.Millisecond)
	if st, body := reset("third"); st != http.StatusUnprocessableEntity || !strings.Contains(fmt.Sprint(body), "does not load") || !strings.Contains(fmt.Sprint(body), "broken.yaml") {
		t.Errorf("a reset to a scenario added while the directory does not load: %d %v, want 422 saying the directory does not load and naming broken.yaml", st, body)
	}
	if err := os.Remove(filepath.Join(dir, "broken.yaml")); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(5 * time.Second)
	for st, _ := reset("third"); st != http.StatusOK && time.Now().Before(deadline); st, _ = reset("third") {
		time.Sleep(200 * time.Millisecond)
	}
	if st, body := reset("nosuch"); strings.Contains(fmt.Sprint(body), "does not load") {
		t.Errorf("once the directory loads again, a reset to an unknown scenario still says it does not load: %d %v", st, body)
	}
}

// Hidden files in the --scenarios directory are an editor's (an Emacs lock, a dangling
// symbolic link while the file is edited; a vim swap file), not scenarios: the mock starts and
// the scenario beside them loads.
func TestScenarioDirSkipsEditorsHiddenFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "launch.yaml"), []byte("name: launch\nbase: empty\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("root@host.1234:1700000000", filepath.Join(dir, ".#launch.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".launch.yaml.swp"), []byte{0, 1, 2}, 0o644); err != nil {
		t.Fatal(err)
	}
	url, stop := startMock(t, "--scenarios", dir)
	defer func() { _ = stop() }()
	res, err := http.Post(url+"/__mock/reset", "application/json", strings.NewReader(`{"scenario":"launch"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("a reset to the scenario beside an editor's lock file: %d, want 200", res.StatusCode)
	}
}

// A --scenario file naming a scenario a --scenarios file names too is refused at start, as two
// files of the directory are: one name stood for two files, and which a reset built changed
// once the directory was read again. The --scenario file inside the directory is one file.
func TestScenarioFileAndDirectoryNamingOneScenario(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	board := func(title string) []byte {
		return []byte("name: one\nbase: empty\nboards:\n  - ref: b\n    title: " + title + "\n")
	}
	for path, body := range map[string][]byte{filepath.Join(dir, "one.yaml"): board("Board one"), filepath.Join(other, "one.yaml"): board("Board other"), filepath.Join(other, "ONE.json"): []byte(`{"name":"ONE"}`)} {
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, file := range []string{filepath.Join(other, "one.yaml"), filepath.Join(other, "ONE.json")} {
		_, err := parseFlags([]string{"--scenarios", dir, "--scenario", file}, noEnv, io.Discard)
		if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "one.yaml")) || !strings.Contains(err.Error(), "rename one") {
			t.Errorf("--scenario %s beside --scenarios naming \"one\": %v, want a refusal naming both files", file, err)
		}
	}
	if _, err := parseFlags([]string{"--scenarios", dir, "--scenario", filepath.Join(dir, "one.yaml")}, noEnv, io.Discard); err != nil {
		t.Errorf("--scenario a file of --scenarios: %v", err)
	}
}

// A file naming the --scenario file's scenario added to the directory while the mock runs
// leaves the scenarios as they were (the start would have refused it), saying why.
func TestScenarioDirFileClashingWithScenarioFileWhileRunning(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	file := filepath.Join(other, "one.yaml")
	if err := os.WriteFile(file, []byte("name: one\nbase: empty\ntags:\n  - ref: t\n    name: From the file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	url, stop := startMock(t, "--scenarios", dir, "--scenario", file)
	defer func() { _ = stop() }()
	if err := os.WriteFile(filepath.Join(dir, "one.yaml"), []byte("name: one\nbase: empty\ntags:\n  - ref: t\n    name: From the directory\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2500 * time.Millisecond) // the directory is read again within a second of a change
	res, err := http.Post(url+"/__mock/reset", "application/json", strings.NewReader(`{"scenario":"one"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	token := loginMember(t, url)
	if got := fmt.Sprint(postJSON(t, url+"/services/operations/v1/operations/tags/list", token, map[string]any{})["data"]); !strings.Contains(got, "From the file") {
		t.Errorf("after a directory file naming the --scenario file's scenario was added, a reset to it lists %s, want the --scenario file's tags", got)
	}
}

// One file reached by two paths (relative and absolute, through a symbolic link to the
// directory) is one scenario, not a clash; and the directory's file named by --scenario is
// read again with the directory when edited, as any of its files.
func TestScenarioFileOfTheDirectoryByAnyPath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "checkout.yaml")
	if err := os.WriteFile(file, []byte("name: checkout\nbase: empty\ntags:\n  - ref: t\n    name: Before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "scl")
	if err := os.Symlink(dir, link); err != nil {
		t.Skipf("symlink: %v", err)
	}
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, file)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][2]string{{dir, rel}, {link, file}, {dir, filepath.Join(link, "checkout.yaml")}} {
		if _, err := parseFlags([]string{"--scenarios", c[0], "--scenario", c[1]}, noEnv, io.Discard); err != nil {
			t.Errorf("--scenarios %s --scenario %s, one file: %v", c[0], c[1], err)
		}
	}
	url, stop := startMock(t, "--scenarios", dir, "--scenario", "checkout")
	defer func() { _ = stop() }()
	if err := os.WriteFile(file, []byte("name: checkout\nbase: empty\ntags:\n  - ref: t\n    name: Edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		res, err := http.Post(url+"/__mock/reset", "application/json", strings.NewReader(`{"scenario":"checkout"}`))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		got := fmt.Sprint(postJSON(t, url+"/services/operations/v1/operations/tags/list", loginMember(t, url), map[string]any{})["data"])
		if strings.Contains(got, "Edited") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the --scenario file of the directory, edited: a reset to it lists %s, want the edit", got)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// With --scenarios and a shipped --scenario (or none), a change to the directory is read while
// the mock keeps serving: the watcher read the --scenario file's name with no file and the
// mock died on the first save.
func TestScenarioDirChangeWithAShippedScenario(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "g.yaml"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("name: gamma\nbase: empty\n")
	for _, args := range [][]string{{"--scenarios", dir}, {"--scenarios", dir, "--scenario", "empty"}} {
		url, stop := startMock(t, args...)
		write("name: gamma\nbase: empty\ntags:\n  - ref: t\n    name: Edited\n")
		time.Sleep(2500 * time.Millisecond) // the directory is read again within a second of a change
		res, err := http.Post(url+"/__mock/reset", "application/json", strings.NewReader(`{"scenario":"gamma"}`))
		if err != nil {
			t.Fatalf("%v: the mock stopped answering after the directory changed: %v", args, err)
		}
		res.Body.Close()
		if got := fmt.Sprint(postJSON(t, url+"/services/operations/v1/operations/tags/list", loginMember(t, url), map[string]any{})["data"]); !strings.Contains(got, "Edited") {
			t.Errorf("%v: a reset to the edited scenario lists %s", args, got)
		}
		if err := stop(); err != nil {
			t.Errorf("%v: stop: %v", args, err)
		}
	}
}

// The directory's file --scenario names, removed or renamed (its name: changed), is not taken:
// the mock came back to the file as read at start, under its old name, silently. Now the
// directory keeps the scenarios as last read, and a reset naming one added meanwhile is
// refused saying the --scenario scenario is gone; once it is back, the change is taken.
func TestScenarioFileOfTheDirectoryRemovedOrRenamed(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "checkout.yaml")
	write := func(path, name, tag string) {
		t.Helper()
		if err := os.WriteFile(path, []byte("name: "+name+"\nbase: empty\ntags:\n  - ref: t\n    name: "+tag+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(file, "checkout", "Start")
	url, stop := startMock(t, "--scenarios", dir, "--scenario", file)
	defer func() { _ = stop() }()
	reset := func(scenario string) (int, string) {
		res, err := http.Post(url+"/__mock/reset", "application/json", strings.NewReader(`{"scenario":"`+scenario+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(raw)
	}
	write(file, "checkout", "Edited")
	deadline := time.Now().Add(5 * time.Second)
	for reset("checkout"); !strings.Contains(fmt.Sprint(postJSON(t, url+"/services/operations/v1/operations/tags/list", loginMember(t, url), map[string]any{})["data"]), "Edited"); reset("checkout") {
		if time.Now().After(deadline) {
			t.Fatal("the --scenario file of the directory, edited, was not read again")
		}
		time.Sleep(200 * time.Millisecond)
	}
	for _, change := range []struct {
		what, added, last string // the scenario added meanwhile; the --scenario file's tag as last read
		make              func()
	}{
		{"removed", "added1", "Edited", func() { _ = os.Remove(file) }},
		{"renamed by its name:", "added2", "Back", func() { write(file, "checkout-v2", "Renamed") }},
	} {
		change.make()
		write(filepath.Join(dir, change.added+".yaml"), change.added, "Added")
		time.Sleep(2500 * time.Millisecond) // the directory is read again within a second of a change
		if st, body := reset(change.added); st != http.StatusUnprocessableEntity || !strings.Contains(body, "no longer holds") || !strings.Contains(body, "checkout") {
			t.Errorf("--scenario file %s, a reset to a scenario added meanwhile: %d %s, want 422 saying the directory no longer holds checkout", change.what, st, body)
		}
		if st, body := reset("checkout"); st != http.StatusOK {
			t.Errorf("--scenario file %s: a reset to it as last read: %d %s", change.what, st, body)
		}
		if got := fmt.Sprint(postJSON(t, url+"/services/operations/v1/operations/tags/list", loginMember(t, url), map[string]any{})["data"]); !strings.Contains(got, change.last) {
			t.Errorf("--scenario file %s: a reset to it lists %s, want it as last read (%s), not as read at start", change.what, got, change.last)
		}
		write(file, "checkout", "Back")
		deadline := time.Now().Add(5 * time.Second)
		for st, _ := reset(change.added); st != http.StatusOK; st, _ = reset(change.added) {
			if time.Now().After(deadline) {
				t.Fatalf("--scenario file %s and put back: a reset to the added scenario is still refused", change.what)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
}
