package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// steerOptions are the flags that steer the mock (README, "Steering the mock").
type steerOptions struct {
	latency     mockserver.Latency
	stateFile   string
	stateFlag   string // how errors name where stateFile came from: the flag, or its variable
	adminToken  string
	corsOrigins []string
}

// steerFlags declares --latency, --state-file, --admin-token and --cors-origins on fs, with
// their environment fallbacks, and returns the function that checks them after parsing.
func steerFlags(fs *flag.FlagSet, getenv environ) func() (steerOptions, error) {
	latency := fs.String("latency", envOr(getenv, "MOCK_LATENCY", ""), "delay every operation: 250ms, or a range such as 100ms-400ms (MOCK_LATENCY)")
	stateFile := fs.String("state-file", envOr(getenv, "MOCK_STATE_FILE", ""), "load the world from this snapshot at start if it exists, save it there at graceful stop (MOCK_STATE_FILE)")
	admin := fs.String("admin-token", envOr(getenv, "MOCK_ADMIN_TOKEN", ""), "require this token (X-Mock-Admin-Token) on every /__mock/ endpoint (MOCK_ADMIN_TOKEN)")
	cors := fs.String("cors-origins", envOr(getenv, "MOCK_CORS_ORIGINS", "*"), "comma-separated origins browsers may call from, * for any (MOCK_CORS_ORIGINS)")
	return func() (steerOptions, error) {
		o := steerOptions{stateFile: *stateFile, adminToken: *admin}
		given := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
		o.stateFlag = "--state-file"
		if !given["state-file"] {
			o.stateFlag = "MOCK_STATE_FILE (--state-file)"
		}
		// --admin-token "$UNSET", or MOCK_ADMIN_TOKEN=${UNSET} in a compose file, would leave the
		// controls open with no sign of it; so would an empty origins list open CORS to any page.
		if (given["admin-token"] || getenv.setEmpty("MOCK_ADMIN_TOKEN")) && *admin == "" {
			return steerOptions{}, errors.New("--admin-token: empty; give the token the controls require, or leave it out (unset) to keep them open")
		}
		// MOCK_STATE_FILE=${UNSET} would keep nothing, and every change be lost at the stop.
		if (given["state-file"] || getenv.setEmpty("MOCK_STATE_FILE")) && *stateFile == "" {
			return steerOptions{}, errors.New("--state-file: empty; give the file to keep the world in, or leave it out (unset) to keep nothing")
		}
		if !given["cors-origins"] && getenv.setEmpty("MOCK_CORS_ORIGINS") {
			*cors = ""
		}
		if err := mockserver.CheckAdminToken(*admin); err != nil {
			return steerOptions{}, fmt.Errorf("--admin-token: %w", err)
		}
		var err error
		if o.latency, err = mockserver.ParseLatency(*latency); err != nil {
			return steerOptions{}, fmt.Errorf("--latency: %w", err)
		}
		if len(splitList(*cors)) == 0 { // an empty list read as "any" would open the mock unasked
			return steerOptions{}, errors.New("--cors-origins: empty; list the origins browsers may call from (such as http://localhost:5173), or * for any")
		}
		o.corsOrigins = splitList(*cors)
		if err := mockserver.CheckCORSOrigins(o.corsOrigins); err != nil {
			return steerOptions{}, fmt.Errorf("--cors-origins: %w", err)
		}
		return o, nil
	}
}

// apply sets the steering of cfg and loads the state file, when there is one.
func (o steerOptions) apply(cfg *mockserver.Config) error {
	cfg.Latency = o.latency
	cfg.AdminToken = o.adminToken
	cfg.CORSOrigins = o.corsOrigins
	if o.stateFile == "" {
		return nil
	}
	removeLeftovers(linkTarget(o.stateFile))
	// The save at stop writes a file beside it and renames it: a folder that is missing or may
	// not be written would lose the session then.
	if dir := filepath.Dir(linkTarget(o.stateFile)); !isDir(dir) {
		return o.unusable("the directory %s does not exist or is not a directory", dir)
	} else if err := writableDir(dir); err != nil {
		return o.unusable("the directory %s cannot be written (%v); the world is saved there at stop", dir, errors.Unwrap(err))
	}
	_, err := fixtures.StatRegular(o.stateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if errors.Is(err, fixtures.ErrNotRegular) {
		return o.unusable("%v; a state file is a JSON snapshot", err)
	}
	if path := linkTarget(o.stateFile); mountedOnItsOwn(path) {
		// Saved in place (writeInPlace): a file the mock may not write would lose the session
		// at stop, as a directory it may not write would (D65).
		if err := openForWriting(path); err != nil {
			return o.unusable("the file is mounted on its own, so it is saved by writing it in place, and it cannot be written (%s); mount it writable by the mock's user, or mount its directory instead", osReason(err))
		}
	}
	b, err := os.ReadFile(o.stateFile)
	if err != nil {
		return o.unusable("%v", errors.Unwrap(err))
	}
	if len(b) == 0 {
		// No world saved yet: a file mounted on its own must exist before the first start
		// (Docker makes a directory of a missing source), and an empty one was refused.
		return nil
	}
	if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		return o.unusable("the file starts with a byte order mark (U+FEFF); save it as UTF-8 without one")
	}
	if !utf8.Valid(b) {
		return o.unusable("the file is not UTF-8 text; a state file is a JSON snapshot, as GET /__mock/state writes it")
	}
	st, err := mockserver.DecodeState(b)
	if err != nil { // worded for PUT /__mock/state's body, whose rules the file follows
		return o.unusable("%s", strings.Replace(err.Error(), "The body must be", "The state file must be", 1))
	}
	cfg.State, cfg.StateSource = &st.State, st.Source
	if cfg.Now.IsZero() { // --now, when given, starts the clock instead
		cfg.Clock = st.Clock
	}
	return nil
}

// lock takes the state file for this mock until release is called (D65): a second mock
// started on the same file is refused, since each would save over the other's session at its
// stop (a write one of them acknowledged was lost). The lock is a file beside the state file
// (its name and ".lock"), locked with flock and removed at release; a state file mounted on
// its own, saved in place, is locked itself. A file that cannot be opened is left to apply to
// word; the kernel drops the lock of a mock killed.
//
// held tells, at the save, why the lock no longer guards the state file: its lock file removed
// or replaced, or the path (a symlink, a directory) now naming another file. A second mock
// could then start on the file, and the saves of the two lost one's acknowledged writes.
func (o steerOptions) lock() (release func(), held func() error, err error) {
	always := func() error { return nil }
	if o.stateFile == "" {
		return func() {}, always, nil
	}
	path := linkTarget(o.stateFile)
	lockPath, remove := path+".lock", true
	if mountedOnItsOwn(path) {
		lockPath, remove = path, false
	}
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return func() {}, always, nil // apply says why the file or its directory cannot be used
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, nil, o.unusable("another mock is using this state file (its lock %s is held); each would save over the other's world at its stop, so start this one with a state file of its own", lockPath)
		}
		return func() {}, always, nil // a file system without locks: nothing to lock with
	}
	ours := func() bool {
		mine, err1 := f.Stat()
		now, err2 := os.Stat(lockPath)
		return err1 == nil && err2 == nil && os.SameFile(mine, now)
	}
	held = func() error {
		switch {
		case linkTarget(o.stateFile) != path:
			return fmt.Errorf("%s now names %s, not the file %s this mock loaded and locked", o.stateFile, linkTarget(o.stateFile), path)
		case !ours():
			return fmt.Errorf("its lock %s was removed or replaced while this mock ran, so another mock may be using the file", lockPath)
		}
		return nil
	}
	return func() {
		if remove && ours() { // another's lock, put in place of a removed one, stays
			_ = os.Remove(lockPath) // while still locked: a mock starting now finds it held
		}
		f.Close()
	}, held, nil
}

// unusable is a state file the mock cannot start from: a usage error (exit 2) naming the flag,
// or the variable it came from, and the file.
func (o steerOptions) unusable(format string, args ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf("%s %s: ", o.stateFlag, o.stateFile) + fmt.Sprintf(format, args...)}
}

// save writes the world of m to the state file, when there is one (D65): to a temporary
// file in the same directory, synced to disk, then renamed over the old one, so a crash or a
// failure never leaves half a snapshot and never loses the previous one. Any failure is
// returned (the command then exits non-zero) and the temporary file is removed.
func (o steerOptions) save(m *mockserver.Server, held func() error) error {
	if o.stateFile == "" {
		return nil
	}
	b, err := json.Marshal(m.Default().StateFile())
	if err != nil {
		return fmt.Errorf("save state: %w", err)
	}
	if why := held(); why != nil {
		// Saved beside it instead: written over the file, the world saved last would have
		// replaced another mock's, or this one's acknowledged writes been lost.
		aside := filepath.Join(filepath.Dir(o.stateFile), fmt.Sprintf("%s.unsaved-%d.json", strings.TrimSuffix(filepath.Base(o.stateFile), ".json"), time.Now().Unix()))
		if err := writeFileAtomic(aside, b); err != nil {
			return fmt.Errorf("state file %s: the world was not saved: %v, and it could not be written aside to %s either: %w", o.stateFile, why, aside, err)
		}
		return fmt.Errorf("state file %s: the world was not saved there: %v; it was saved to %s instead", o.stateFile, why, aside)
	}
	if err := writeFileAtomic(o.stateFile, b); err != nil {
		return fmt.Errorf("state file %s: the world was not saved: %w", o.stateFile, err)
	}
	return nil
}

// tempPrefix names the temporary files of a save of path: ".mockserver-state-<file>-".
func tempPrefix(path string) string { return ".mockserver-state-" + filepath.Base(path) + "-" }

// removeLeftovers removes the temporary files a save of path left when the process was killed
// mid-save (kill -9, a crash): the state file itself is never touched (D149).
func removeLeftovers(path string) {
	prefix := filepath.Join(filepath.Dir(path), tempPrefix(path))
	left, _ := filepath.Glob(globEscape(prefix) + "*")
	for _, f := range left {
		// os.CreateTemp puts digits where the pattern has *: a file named otherwise is a
		// user's (".mockserver-state-s.json-mybackup"), and stays.
		if suffix := strings.TrimPrefix(f, prefix); suffix == "" || strings.Trim(suffix, "0123456789") != "" {
			continue
		}
		if fi, err := os.Lstat(f); err == nil && fi.Mode().IsRegular() {
			_ = os.Remove(f)
		}
	}
}

// globEscape escapes the characters filepath.Glob reads as patterns.
func globEscape(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`*?[\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// writeFileAtomic replaces path with b through a synced temporary file and a rename; a path
// that is a symbolic link has the file it names replaced, and stays a link. A kill mid-write
// leaves the old file whole (and a temporary file the next start removes).
func writeFileAtomic(path string, b []byte) error {
	path = linkTarget(path)
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, tempPrefix(path)+"*")
	if err != nil {
		return worded{fmt.Sprintf("no file can be made in the directory %s (%s)", dir, osReason(err)), err}
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if fi, statErr := os.Stat(path); statErr == nil {
		_ = tmp.Chmod(fi.Mode().Perm()) // a file replaced keeps its rights
	}
	if err := writeSynced(tmp, b); err != nil {
		return worded{fmt.Sprintf("writing it in the directory %s failed (%s)", dir, osReason(err)), err}
	}
	if err := rename(tmp.Name(), path); err != nil {
		if errors.Is(err, syscall.EBUSY) || errors.Is(err, syscall.EXDEV) {
			// A file mounted on its own (a container's bind mount of the one file) cannot be
			// replaced: it is written in place instead, as a kill mid-write may cut it short.
			return writeInPlace(path, b)
		}
		return worded{fmt.Sprintf("it could not take the place of %s (%s)", path, osReason(err)), err}
	}
	// Sync the directory so the rename itself survives a crash; not every system allows it.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// mountInfo lists the mount points of the process (Linux); elsewhere it does not exist and no
// file counts as mounted on its own.
var mountInfo = "/proc/self/mountinfo"

// mountedOnItsOwn tells whether path is a mount point of its own (a container's bind mount of
// the one file), which a rename cannot replace.
func mountedOnItsOwn(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	raw, err := os.ReadFile(mountInfo)
	if err != nil {
		return false
	}
	for line := range strings.SplitSeq(string(raw), "\n") {
		// The fifth field is the mount point, with spaces and such written as octal escapes.
		if f := strings.Fields(line); len(f) > 4 && unescapeMount(f[4]) == abs {
			return true
		}
	}
	return false
}

// unescapeMount undoes mountinfo's octal escapes ("\040" for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// openForWriting opens path for writing, and closes it, or says why it cannot; tests stand in
// a user the file refuses.
var openForWriting = func(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	return f.Close()
}

// writeSynced writes b to f, syncs it to the disk and closes it.
func writeSynced(f *os.File, b []byte) error {
	_, err := f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// rename is os.Rename; tests stand in a mount's refusal.
var rename = os.Rename

// writeInPlace writes b over the file at path, which a rename cannot replace (a file mounted on
// its own, D65): truncated, written and synced.
func writeInPlace(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err == nil {
		err = writeSynced(f, b)
	}
	if err != nil {
		return worded{fmt.Sprintf("%s cannot be replaced (a file mounted on its own), and writing it in place failed (%s)", path, osReason(err)), err}
	}
	return nil
}

// worded is an error in the command's words that wraps the system's.
type worded struct {
	msg string
	err error
}

func (w worded) Error() string { return w.msg }
func (w worded) Unwrap() error { return w.err }

// osReason is the system's reason for err, without the paths Go's error names (a temporary
// file's among them): "no such file or directory", "no space left on device".
func osReason(err error) string {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err.Error()
	case errors.As(err, &le):
		return le.Err.Error()
	}
	return err.Error()
}
