package proxy

import (
	"cmp"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
)

// WriteJSONReport writes the Report as indented JSON.
func (p *Proxy) WriteJSONReport(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(p.Report()); err != nil {
		return fmt.Errorf("write json report: %w", err)
	}
	return nil
}

// junitSuites is the root of a JUnit XML report.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Skipped   int         `xml:"skipped,attr"`
	Timestamp string      `xml:"timestamp,attr"`
	Time      string      `xml:"time,attr"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	Classname string         `xml:"classname,attr"`
	Name      string         `xml:"name,attr"`
	Skipped   *junitSkipped  `xml:"skipped"`
	Failures  []junitFailure `xml:"failure"`
	SystemOut string         `xml:"system-out,omitempty"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

type junitFailure struct {
	Type    string `xml:"type,attr"`
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// junitFailures words op's deployment violations as one failure (JUnit readers such as
// Jenkins show one per testcase: a second was hidden, and it could be the one that came first),
// its rules in the order they were first broken, the first one's statement as the message; and
// the client's violations as lines for system-out.
func junitFailures(op OperationReport) ([]junitFailure, []string) {
	vs := slices.Clone(op.Violations)
	slices.SortStableFunc(vs, func(a, b RuleCount) int { return cmp.Compare(a.First.ExchangeID, b.First.ExchangeID) })
	var ids, texts, client []string
	message := ""
	for _, v := range vs {
		text := fmt.Sprintf("%s: %s\nbroken %d times in %d exchanges; first: exchange %d, %s %s answered %d: %s",
			v.Rule, v.Statement, v.Count, op.Exchanges, v.First.ExchangeID, v.First.Method, v.First.Path, v.First.Status, v.First.Detail)
		if v.Party == Client {
			client = append(client, "client violation "+text)
			continue
		}
		if message == "" {
			message = v.Statement
		}
		ids, texts = append(ids, string(v.Rule)), append(texts, text)
	}
	if len(ids) == 0 {
		return nil, client
	}
	return []junitFailure{{Type: strings.Join(ids, ", "), Message: message, Text: strings.Join(texts, "\n\n")}}, client
}

// WriteJUnitReport writes one testcase per operation (classname: the operation id), with one
// failure naming the deployment rules it broke; the client's violations are listed in system-out, and
// an operation no exchange reached is skipped (D96).
func (p *Proxy) WriteJUnitReport(w io.Writer) error {
	r := p.Report()
	suite := junitSuite{
		Name:      "contract proxy of " + r.Upstream,
		Timestamp: r.Started.Format("2006-01-02T15:04:05"),
		Time:      fmt.Sprintf("%.3f", r.Finished.Sub(r.Started).Seconds()),
	}
	for _, op := range r.Operations {
		c := junitCase{Classname: op.Operation, Name: "POST " + op.Path}
		if op.Exchanges == 0 {
			c.Skipped = &junitSkipped{Message: "no exchange of this operation was judged: none passed through the proxy, or none got the upstream's answer (the client went away, or the proxy stopped first)"}
			suite.Skipped++
		}
		var client []string
		c.Failures, client = junitFailures(op)
		c.SystemOut = strings.Join(client, "\n\n")
		if len(c.Failures) > 0 {
			suite.Failures++
		}
		suite.Tests++
		suite.Cases = append(suite.Cases, c)
	}
	root := junitSuites{Name: "contract proxy", Tests: suite.Tests, Failures: suite.Failures, Skipped: suite.Skipped, Suites: []junitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("write junit report: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(root); err != nil {
		return fmt.Errorf("write junit report: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}
