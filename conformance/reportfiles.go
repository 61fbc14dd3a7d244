package conformance

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// The file names of the reports written to the directory of EnvReports.
const (
	ReportJUnitName   = "junit.xml"
	ReportJSONName    = "conformance.json"
	ReportHTMLName    = "conformance.html"
	ReportSummaryName = "summary.txt"
)

// ReportFiles are the files a run writes its reports to; an empty path writes no such report.
type ReportFiles struct {
	JUnit, JSON, HTML, Summary string
}

// ResolveReports decides the report files of a run: a Ginkgo flag (junitFlag, jsonFlag) or a
// variable naming a file wins; otherwise, when cfg.ReportsDir is set, the file of that name in
// it.
func ResolveReports(cfg Config, junitFlag, jsonFlag string) ReportFiles {
	f := ReportFiles{JUnit: junitFlag, JSON: jsonFlag, HTML: cfg.HTMLFile, Summary: cfg.SummaryFile}
	if cfg.ReportsDir == "" {
		return f
	}
	for _, d := range []struct {
		path *string
		name string
	}{{&f.JUnit, ReportJUnitName}, {&f.JSON, ReportJSONName}, {&f.HTML, ReportHTMLName}, {&f.Summary, ReportSummaryName}} {
		if *d.path == "" {
			*d.path = filepath.Join(cfg.ReportsDir, d.name)
		}
	}
	return f
}

// CheckWritable reports whether the file at path can be written, by creating it (an existing
// file is left as it is until the report replaces it).
func CheckWritable(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

// ReportWarning is the one-line warning for a report that cannot be written: the run goes on,
// and its verdict does not depend on it.
func ReportWarning(what, path string, err error) string {
	hint := ""
	if errors.Is(err, os.ErrPermission) {
		hint = ` (in a container, run it as your own user, docker run --user "$(id -u):$(id -g)" …, so a bind-mounted directory is writable)`
	}
	return fmt.Sprintf("conformance: warning: the %s report cannot be written to %s: %v%s; the run goes on and its verdict does not depend on it", what, path, err, hint)
}

// WriteReportFile writes a report with write to path, or returns the warning to print when it
// cannot ("" when it was written).
func WriteReportFile(what, path string, write func(io.Writer) error) string {
	f, err := os.Create(path)
	if err != nil {
		return ReportWarning(what, path, err)
	}
	werr := write(f)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return ReportWarning(what, path, werr)
	}
	return ""
}
