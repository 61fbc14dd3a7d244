package report

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/opsapi/mocktoolkit/conformance"
)

// The file names of the reports written to the directory of EnvReports.
const (
	JUnitName   = "junit.xml"
	JSONName    = "conformance.json"
	HTMLName    = "conformance.html"
	SummaryName = "summary.txt"
)

// Files are the files a run writes its reports to; an empty path writes no such report.
type Files struct {
	JUnit, JSON, HTML, Summary string
}

// Resolve decides the report files of a run: a Ginkgo flag (junitFlag, jsonFlag) or a
// variable naming a file wins; otherwise, when cfg.ReportsDir is set, the file of that name in
// it.
func Resolve(cfg conformance.Config, junitFlag, jsonFlag string) Files {
	f := Files{JUnit: junitFlag, JSON: jsonFlag, HTML: cfg.HTMLFile, Summary: cfg.SummaryFile}
	if cfg.ReportsDir == "" {
		return f
	}
	for _, d := range []struct {
		path *string
		name string
	}{{&f.JUnit, JUnitName}, {&f.JSON, JSONName}, {&f.HTML, HTMLName}, {&f.Summary, SummaryName}} {
		if *d.path == "" {
			*d.path = filepath.Join(cfg.ReportsDir, d.name)
		}
	}
	return f
}

// Prepare makes the folder of the report at path when it does not exist, then checks that the
// file can be written (CheckWritable).
func Prepare(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return CheckWritable(path)
}

// CheckWritable reports whether the file at path can be written, by creating it (an existing
// file is left as it is until the report replaces it).
func CheckWritable(path string) error {
	// A FIFO with no reader would block the open (and the run's end); a device is no report.
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

// Warning is the one-line warning for a report that cannot be written: the run goes on,
// and its verdict does not depend on it.
func Warning(what, path string, err error) string {
	hint := ""
	if errors.Is(err, os.ErrPermission) {
		hint = ` (in a container, run it as your own user, docker run --user "$(id -u):$(id -g)" …, so a bind-mounted directory is writable)`
	}
	return fmt.Sprintf("conformance: warning: the %s report cannot be written to %s: %v%s; the run goes on and its verdict does not depend on it", what, path, err, hint)
}

// WriteFile writes a report with write to path, or returns the warning to print when it
// cannot ("" when it was written).
func WriteFile(what, path string, write func(io.Writer) error) string {
	f, err := os.Create(path)
	if err != nil {
		return Warning(what, path, err)
	}
	werr := write(f)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return Warning(what, path, werr)
	}
	return ""
}
