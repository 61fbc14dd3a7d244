package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/proxy"
)

// checkOutputPaths refuses at start a file the stop could not write (D195): a --record-scenario,
// --report-json or --report-junit whose existing path is not a regular file or whose parent is
// not a directory, or two of them naming one file. The recording or the report would otherwise
// be lost at stop (a lost report exits 1, like a verdict of --fail-on-violation).
func checkOutputPaths(opts proxyOptions) error {
	outputs := []struct{ flag, path, what string }{
		{"--record-scenario", opts.recordScenario, "the recording is written to a YAML file"},
		{"--report-json", opts.reportJSON, "the report is written to a file"},
		{"--report-junit", opts.reportJUnit, "the report is written to a file"},
	}
	for i, o := range outputs {
		if o.path == "" {
			continue
		}
		if _, err := fixtures.StatRegular(o.path); errors.Is(err, fixtures.ErrNotRegular) {
			return fmt.Errorf("%s %s: %w; %s", o.flag, o.path, err, o.what)
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s %s: %w", o.flag, o.path, errors.Unwrap(err))
		}
		if o.flag == "--record-scenario" {
			removeLeftovers(linkTarget(o.path)) // of a recording's write cut short by a kill
		}
		if dir := filepath.Dir(linkTarget(o.path)); !isDir(dir) {
			return fmt.Errorf("%s %s: the directory %s does not exist or is not a directory", o.flag, o.path, dir)
		} else if err := writableDir(dir); err != nil {
			return fmt.Errorf("%s %s: the directory %s cannot be written (%v); %s at stop", o.flag, o.path, dir, errors.Unwrap(err), o.what)
		}
		for _, other := range outputs[i+1:] {
			if other.path != "" && (realPath(other.path) == realPath(o.path) || sameFile(other.path, o.path)) {
				return fmt.Errorf("%s %s and %s %s are the same file: one would overwrite the other", o.flag, o.path, other.flag, other.path)
			}
		}
	}
	return nil
}

// sameFile tells two existing paths that are one file under two names (hard links).
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// linkTarget is where path leads when it is a symbolic link (followed as writing it would, a
// relative target read from the link's directory), else path: a link to a missing directory
// must fail at start, not lose the recording at stop.
func linkTarget(path string) string {
	for range 40 { // as many links as a system follows
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return path
		}
		to, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return path
}

// writableDir makes and removes a file in dir, as a save at stop will (D195): a folder the
// command may not write fails at start, not after a session's work.
func writableDir(dir string) error {
	f, err := os.CreateTemp(dir, ".mockserver-check-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// withRecorder puts a scenario recorder in front of the proxy when --record-scenario names a
// file (D174); rec is nil otherwise.
func withRecorder(p *proxy.Proxy, opts proxyOptions) (http.Handler, *proxy.ScenarioRecorder, error) {
	if opts.recordScenario == "" {
		return p, nil, nil
	}
	rec, err := proxy.NewScenarioRecorder(p)
	if err != nil {
		return nil, nil, err
	}
	return rec, rec, nil
}

// writeRecording writes the recorded scenario at stop and says what it holds.
func writeRecording(rec *proxy.ScenarioRecorder, opts proxyOptions, out io.Writer, logger *slog.Logger) error {
	if rec == nil {
		return nil
	}
	name := proxy.ScenarioName(opts.recordScenario)
	head := fmt.Sprintf("Recorded by mockserver proxy from %s: the records its answers showed, in the member's project.\nStart a mock with it: mockserver --scenario %s", opts.upstream.Redacted(), opts.recordScenario)
	base, err := fixtures.BuildScenario("empty", fixtures.DefaultSeed, time.Now())
	if err != nil {
		return fmt.Errorf("record scenario: %w", err)
	}
	taken := fixtures.IDsByKind(base.State)
	var buf bytes.Buffer // the file is written once the scenario is whole
	c, err := rec.WriteScenario(&buf, proxy.ScenarioOptions{Name: name, Comment: head, Seed: fixtures.DefaultSeed,
		Taken:     func(kind string, id int64) bool { return taken[kind][id] },
		Check:     func(b []byte) []string { return fixtures.ScenarioProblems(b, opts.recordScenario) },
		BaseCarts: len(base.State.Carts), MaxBytes: fixtures.MaxScenarioFile,
		Note: func(s string) { logger.Warn("record scenario: " + s) }})
	if err != nil {
		return err
	}
	left := leftOutWords(rec.LeftOut())
	// A recording that started over at its world's rebuild says so where it says what it holds,
	// or the records missing from before the rebuild read as lost (D174).
	restarted := ""
	if rec.Restarts() > 0 {
		restarted = "; the recording restarted at a rebuild of the world it records (the log says which), so it holds only what the answers showed after it"
	}
	if nothingRecorded(c) {
		if fi, err := os.Stat(opts.recordScenario); err == nil && fi.Size() > 0 {
			if left != "" { // the answers showed records, and every one was left out (D197)
				fmt.Fprintf(out, "scenario %s not written: the answers showed records but none could be kept (%s), and %s is left as it was%s\n", name, left, opts.recordScenario, restarted)
			} else {
				fmt.Fprintf(out, "scenario %s not written: no answer showed a record, and %s is left as it was%s\n", name, opts.recordScenario, restarted)
			}
			return nil
		}
	}
	if err := writeFileAtomic(opts.recordScenario, buf.Bytes()); err != nil {
		return fmt.Errorf("--record-scenario %s: the recording was not written: %w (the folder was writable at start; it was removed or its rights changed while the proxy ran)", opts.recordScenario, err)
	}
	if left != "" {
		left = "; " + left
	}
	fmt.Fprintf(out, "scenario %s written to %s holding %s, %s, %s, %s, %s, %s from the answers' records (a group, board or tag a record names but no answer showed is added as a placeholder)%s%s\n",
		name, opts.recordScenario, count(c["boards"], "board"), count(c["groups"], "group"), count(c["tags"], "tag"), count(c["cards"], "card"), count(c["comments"], "comment"), count(c["carts"], "cart"), left, restarted)
	return nil
}

// leftOutWords says what a recording left out, for the stop's line (D197): "left out 88 records:
// 14 tags, 74 cards, the log names 10 of them and counts the rest"; "" when it left out none.
// The line used to say the log named each record left out, where it named none.
func leftOutWords(l proxy.LeftOutRecords) string {
	total := l.Total()
	if total == 0 {
		return ""
	}
	var parts []string
	for _, k := range []struct{ kind, one string }{{"boards", "board"}, {"groups", "group"}, {"tags", "tag"}, {"cards", "card"}, {"comments", "comment"}, {"carts", "cart"}, {"cart items", "cart item"}} {
		if n := l.ByKind[k.kind]; n > 0 {
			parts = append(parts, count(n, k.one))
		}
	}
	says := "the log names them"
	switch {
	case l.Counted >= total:
		says = "the log counts them"
	case l.Counted > 0:
		says = fmt.Sprintf("the log names %d of them and counts the rest", total-l.Counted)
	}
	return fmt.Sprintf("left out %s: %s, %s", count(total, "record"), strings.Join(parts, ", "), says)
}

// nothingRecorded tells whether a recording holds no record of any kind.
func nothingRecorded(counts map[string]int) bool {
	for _, n := range counts {
		if n > 0 {
			return false
		}
	}
	return true
}

// realPath is the file p names once symbolic links are followed (a link to a file that does not
// exist yet names that file), absolute and clean, so two spellings of one file compare equal.
func realPath(p string) string {
	for range 16 {
		target, err := os.Readlink(p)
		if err != nil {
			break
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = target
	}
	if a, err := filepath.Abs(p); err == nil {
		p = a
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		p = filepath.Join(dir, filepath.Base(p))
	}
	return filepath.Clean(p)
}
