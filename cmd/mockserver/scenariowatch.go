package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// watchScenarioDir reloads the --scenarios directory when one of its scenario files is added,
// changed or removed (D101): resets name what the files hold now, without a restart. A directory
// that no longer loads (a file with a problem, two files of one name) keeps the last set that
// did, and the log says why. A --scenario file from outside the directory stays named.
func watchScenarioDir(ctx context.Context, o worldOptions, m *mockserver.Server, logger *slog.Logger) {
	if o.scenarioDir == "" {
		return
	}
	last := o.scenarioSig
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		sig := dirSignature(o.scenarioDir)
		if sig == last {
			continue
		}
		last = sig
		loaded, err := loadScenarioDir(o.scenarioDir)
		if err == nil && o.file != nil {
			err = nameClash(o.file, loaded)
		}
		if err == nil && o.file != nil && o.fileInDir() {
			err = lostScenario(o.file, loaded)
		}
		if err != nil {
			logger.Warn("scenarios: the directory changed and does not load; resets keep the scenarios it held before", "dir", o.scenarioDir, "problems", err.Error())
			m.SetScenarioProblem(err)
			continue
		}
		if o.file != nil && !o.fileInDir() {
			// The --scenario file outside the directory stays as read at start: every new world
			// starts from it. One of the directory (lostScenario: still there) is read again
			// with it.
			loaded[o.file.Name] = o.file
		}
		m.SetScenarios(loaded)
		m.SetScenarioProblem(nil)
		names := make([]string, 0, len(loaded))
		for name := range loaded {
			names = append(names, name)
		}
		slices.Sort(names)
		logger.Info("scenarios: the directory changed; resets may name " + strings.Join(names, ", "))
	}
}

// dirSignature sums up the scenario files of dir (name, size, time of change), so a change is
// seen without reading them.
func dirSignature(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "unreadable: " + err.Error()
	}
	var b strings.Builder
	for _, e := range entries {
		if e.IsDir() || !inScenarioDir(e.Name()) {
			continue
		}
		if fi, err := e.Info(); err == nil {
			fmt.Fprintf(&b, "%s %d %d\n", e.Name(), fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return b.String()
}

// fileInDir tells whether the --scenario file is one of the --scenarios directory's files.
func (o worldOptions) fileInDir() bool {
	return o.file != nil && o.scenarioDir != "" && sameFile(filepath.Dir(o.file.Path()), o.scenarioDir)
}

// lostScenario says why a change to the directory cannot be taken when it no longer holds the
// scenario --scenario names from it (the file removed, renamed to no scenario file, or its
// name: changed): every new world starts from that scenario, so the directory keeps the
// scenarios it held before, the --scenario one as last read (D101).
func lostScenario(file *fixtures.ScenarioFile, loaded map[string]*fixtures.ScenarioFile) error {
	if _, held := loaded[file.Name]; held {
		return nil
	}
	return fmt.Errorf("--scenario names the scenario %q of %s, which the directory no longer holds (the file removed or renamed, or its name: changed): every new world starts from it, as last read; put it back, or restart the mock with another --scenario", file.Name, file.Path())
}
