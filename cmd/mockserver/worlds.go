package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/internal/hostguard"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// worldOptions are the flags of worlds and scenarios (D100, D101).
type worldOptions struct {
	scenario     string                            // the name of the scenario of every new world
	file         *fixtures.ScenarioFile            // when --scenario named a file
	scenarios    map[string]*fixtures.ScenarioFile // user-authored scenarios by name
	scenarioDir  string                            // --scenarios, watched while the mock runs
	scenarioSig  string                            // dirSignature of scenarioDir before it was loaded
	maxWorlds    int                               // mockserver.Config.MaxWorlds (-1: off)
	maxStateMB   int                               // mockserver.Config.MaxStateMB
	allowedHosts []string
}

// worldFlags declares --scenario, --max-worlds, --max-state-mb and --allowed-hosts on fs.
func worldFlags(fs *flag.FlagSet, getenv environ) func() (worldOptions, error) {
	scenario := fs.String("scenario", envOr(getenv, "MOCK_SCENARIO", fixtures.DefaultScenario), "the world to start from: "+strings.Join(fixtures.Scenarios, ", ")+", or a scenario file (.yaml, .yml, .json) (MOCK_SCENARIO)")
	maxWorlds := fs.String("max-worlds", envOr(getenv, "MOCK_MAX_WORLDS", strconv.Itoa(mockserver.DefaultMaxWorlds)), "most named worlds kept (/__worlds/<name>/…), the least recently used going first; 0 turns them off (MOCK_MAX_WORLDS)")
	maxState := fs.String("max-state-mb", envOr(getenv, "MOCK_MAX_STATE_MB", strconv.Itoa(mockserver.DefaultMaxStateMB)), "most MiB the records of every world hold together; past it the least recently used idle worlds go, then changes are refused (MOCK_MAX_STATE_MB)")
	dir := fs.String("scenarios", envOr(getenv, "MOCK_SCENARIOS", ""), "a directory of scenario files (.yaml, .yml, .json), each a scenario resets may name (MOCK_SCENARIOS)")
	hosts := fs.String("allowed-hosts", envOr(getenv, "MOCK_ALLOWED_HOSTS", ""), "comma-separated host names the /__mock/ endpoints answer besides localhost and IP addresses, * for any (MOCK_ALLOWED_HOSTS)")
	return func() (worldOptions, error) {
		o := worldOptions{scenario: *scenario}
		n, err := strconv.Atoi(*maxWorlds)
		if err != nil || n < 0 || n > mockserver.MostWorlds {
			return worldOptions{}, fmt.Errorf("--max-worlds: want a whole number from 0 to %d, got %q", mockserver.MostWorlds, *maxWorlds)
		}
		o.maxWorlds = n
		if n == 0 {
			o.maxWorlds = -1
		}
		if o.maxStateMB, err = strconv.Atoi(*maxState); err != nil || o.maxStateMB < 1 || o.maxStateMB > mockserver.MostStateMB {
			return worldOptions{}, fmt.Errorf("--max-state-mb: want a whole number of MiB from 1 to %d, got %q", mockserver.MostStateMB, *maxState)
		}
		o.allowedHosts = splitList(*hosts)
		if err := hostguard.CheckNames(o.allowedHosts); err != nil {
			return o, fmt.Errorf("--allowed-hosts: %w", err)
		}
		o.scenarioDir = *dir
		if *dir != "" {
			o.scenarioSig = dirSignature(*dir) // before the load: a change after it is seen
		}
		if o.scenarios, err = loadScenarioDir(*dir); err != nil {
			return worldOptions{}, fmt.Errorf("--scenarios: %w", err)
		}
		_, named := o.scenarios[o.scenario]
		switch {
		case isScenarioFile(o.scenario):
			f, err := fixtures.LoadScenarioFile(o.scenario)
			if err != nil {
				return worldOptions{}, fmt.Errorf("--scenario: %w", err)
			}
			if err := nameClash(f, o.scenarios); err != nil {
				return worldOptions{}, err
			}
			o.file, o.scenario = f, f.Name
			o.scenarios[f.Name] = f
		case named:
			o.file = o.scenarios[o.scenario]
		case !fixtures.IsScenario(o.scenario):
			return worldOptions{}, fmt.Errorf("--scenario: want one of %s, a scenario of --scenarios or a scenario file (.yaml, .yml, .json), got %q", strings.Join(fixtures.Scenarios, ", "), o.scenario)
		}
		return o, nil
	}
}

// splitList is the items of a comma-separated flag, blanks left out.
func splitList(s string) []string {
	var out []string
	for _, h := range strings.Split(s, ",") {
		if h = strings.TrimSpace(h); h != "" {
			out = append(out, h)
		}
	}
	return out
}

// isScenarioFile tells a file name from a scenario name.
func isScenarioFile(s string) bool {
	switch strings.ToLower(filepath.Ext(s)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return strings.ContainsRune(s, filepath.Separator)
}

// apply sets the worlds of cfg.
func (o worldOptions) apply(cfg *mockserver.Config) {
	cfg.Scenario = o.scenario
	cfg.Scenarios = o.scenarios
	cfg.MaxWorlds = o.maxWorlds
	cfg.MaxStateMB = o.maxStateMB
	cfg.AllowedHosts = o.allowedHosts
}

// inScenarioDir tells whether a file of the --scenarios directory is a scenario: a YAML or JSON
// file, not a JSON Schema beside them (*.schema.json), and not hidden: editors keep lock files,
// swap files and backups there while a file is edited (.#launch.yaml, .launch.yaml.swp).
func inScenarioDir(name string) bool {
	return isScenarioFile(name) && !strings.HasSuffix(name, ".schema.json") && !strings.HasPrefix(name, ".")
}

// isSnapshot tells a JSON file of the --scenarios directory that is a snapshot, not a scenario:
// an object with the users a snapshot holds and no scenario has. A --state-file kept in the
// directory (or a GET /__mock/state saved there) was read as a scenario of 1866 problems, and the
// mock refused its own next start with the same flags.
func isSnapshot(path string) bool {
	if !strings.EqualFold(filepath.Ext(path), ".json") {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	dec := json.NewDecoder(io.LimitReader(f, fixtures.MaxScenarioFile))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return false
		}
		if key == "users" {
			return true
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	return false
}

// nameClash says why file, given to --scenario, cannot join the scenarios of the --scenarios
// directory: another file there names the same scenario (in any case), so one name would
// stand for two files, and which one a reset builds would depend on which loaded last.
func nameClash(file *fixtures.ScenarioFile, dir map[string]*fixtures.ScenarioFile) error {
	for name, other := range dir {
		if strings.EqualFold(name, file.Name) && !sameFile(other.Path(), file.Path()) {
			return fmt.Errorf("--scenario %s names the scenario %q, as the --scenarios file %s does (names that differ only in case are one name): rename one", file.Path(), file.Name, other.Path())
		}
	}
	return nil
}

// loadScenarioDir loads every scenario file of dir ("" for none), by scenario name; JSON
// Schemas (*.schema.json) beside them are left alone.
func loadScenarioDir(dir string) (map[string]*fixtures.ScenarioFile, error) {
	out := map[string]*fixtures.ScenarioFile{}
	if dir == "" {
		return out, nil
	}
	byFolded := map[string]*fixtures.ScenarioFile{} // names differing only in case collide
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: no such folder", dir)
	case errors.Is(err, fs.ErrPermission):
		return nil, fmt.Errorf("%s: this user may not read the folder", dir)
	case err != nil && strings.Contains(err.Error(), "not a directory"):
		return nil, fmt.Errorf("%s: a file, not a folder (--scenario takes one file)", dir)
	case err != nil:
		return nil, err
	}
	var problems []error // every file's, at once; nothing loads while there is one (D145)
	for _, e := range entries {
		if e.IsDir() || !inScenarioDir(e.Name()) || isSnapshot(filepath.Join(dir, e.Name())) {
			continue
		}
		f, err := fixtures.LoadScenarioFile(filepath.Join(dir, e.Name()))
		if err != nil {
			problems = append(problems, err)
			continue
		}
		if other, dup := byFolded[strings.ToLower(f.Name)]; dup {
			problems = append(problems, fmt.Errorf("%s and %s both name the scenario %q (names that differ only in case are one name)", other.Path(), f.Path(), f.Name))
			continue
		}
		out[f.Name], byFolded[strings.ToLower(f.Name)] = f, f
	}
	if len(problems) > 0 {
		return nil, errors.Join(problems...)
	}
	return out, nil
}
