package conformance

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"
)

// HTMLReport is what the self-contained HTML report of a run shows (WriteHTML).
type HTMLReport struct {
	Title     string
	Target    string
	Generated time.Time
	Run       Run
	Summary   Summary
	// Rows are the verdicts per operation and aspect, in interface order.
	Rows []HTMLRow
	// Failures and Skips are the failed and skipped specs.
	Failures []HTMLSpec
	Skips    []HTMLSpec
	// Coverage is per operation, in interface order.
	Coverage []HTMLCoverage
}

// HTMLRow is one operation's verdicts.
type HTMLRow struct {
	Op      string
	Verdict string
	Cells   []HTMLCell // one per Aspects
}

// HTMLCell is the verdict of one operation and aspect ("" when no spec of it ran).
type HTMLCell struct {
	Verdict string
	Tally   Tally
}

// HTMLSpec is a failed or skipped spec.
type HTMLSpec struct {
	Name string
	Op   string
	// Broken are the rules the failure message cites; Rules those the spec checks (its rule:
	// labels) that the message does not cite.
	Broken   []Rule
	Rules    []Rule
	Message  string
	Location string
}

// citedRule finds the rule ids a failure message cites ("rule HDR-1: …", "rule REF-CART (…").
var citedRule = regexp.MustCompile(`\brule ([A-Z]+(?:-[A-Z0-9]+)+)\b`)

// HTMLCoverage is what the run exercised of one operation.
type HTMLCoverage struct {
	Op string
	// Listed are the statuses the interface lists ("not shown" when it does not).
	Listed []int
	// Received counts the answers per status; Unlisted are received statuses not listed; Missed
	// are listed statuses no answer had.
	Received map[int]int
	Statuses []int
	Missed   []int
	// Constraints are the field constraints the run probed, with how many requests broke each
	// (Invalid) and how many sent a value at its bound (Bound).
	Constraints []HTMLConstraint
}

// HTMLConstraint is one field constraint exercised.
type HTMLConstraint struct {
	Field, Kind    string
	Invalid, Bound int
}

// Records returns the exchanges a spec report holds (ReportEntryExchanges), in process or
// read back from another process's report.
func Records(sr types.SpecReport) []ExchangeRecord {
	var out []ExchangeRecord
	for _, e := range sr.ReportEntries {
		if e.Name != ReportEntryExchanges {
			continue
		}
		if rs, ok := e.Value.GetRawValue().([]ExchangeRecord); ok {
			out = append(out, rs...)
			continue
		}
		var rs []ExchangeRecord
		if json.Unmarshal([]byte(e.Value.AsJSON), &rs) == nil {
			out = append(out, rs...)
		}
	}
	return out
}

// BuildHTMLReport gathers what the HTML report shows from a suite report narrowed by run.
func BuildHTMLReport(report types.Report, run Run, target string, now time.Time) HTMLReport {
	s := SummarizeRun(report, run)
	h := HTMLReport{Title: "Conformance report", Target: target, Generated: now.UTC(), Run: run, Summary: s}
	for _, op := range Operations {
		row := s.ByOperation[op.ID]
		if row == nil {
			continue
		}
		var total Tally
		r := HTMLRow{Op: op.ID}
		for _, a := range Aspects {
			c := HTMLCell{}
			if t := row[a]; t != nil {
				c = HTMLCell{Verdict: Verdict(*t), Tally: *t}
				total.Passed += t.Passed
				total.Failed += t.Failed
				total.Skipped += t.Skipped
			}
			r.Cells = append(r.Cells, c)
		}
		r.Verdict = Verdict(total)
		h.Rows = append(h.Rows, r)
	}

	cov := map[string]*HTMLCoverage{}
	constraints := map[string]map[string]*HTMLConstraint{}
	for _, op := range Operations {
		cov[op.ID] = &HTMLCoverage{Op: op.ID, Listed: op.Codes, Received: map[int]int{}}
		constraints[op.ID] = map[string]*HTMLConstraint{}
	}
	for _, sr := range report.SpecReports {
		if sr.LeafNodeType != types.NodeTypeIt || LeftOutByFilter(sr) {
			continue
		}
		for _, rec := range Records(sr) {
			c := cov[rec.Op]
			if c == nil {
				continue
			}
			if rec.Status != 0 {
				c.Received[rec.Status] += rec.Count
			}
			if rec.Constraint != "" {
				k := constraints[rec.Op][rec.Constraint]
				if k == nil {
					field, kind, _ := strings.Cut(rec.Constraint, " ")
					k = &HTMLConstraint{Field: field, Kind: kind}
					constraints[rec.Op][rec.Constraint] = k
				}
				if rec.Intent == Invalid.String() {
					k.Invalid += rec.Count
				} else {
					k.Bound += rec.Count
				}
			}
		}
		spec := func() HTMLSpec {
			hs := HTMLSpec{Name: sr.FullText(), Op: LabelValue(sr.Labels(), "op"), Message: redactText(sr.Failure.Message), Location: sr.Failure.Location.String()}
			seen := map[string]bool{}
			for _, m := range citedRule.FindAllStringSubmatch(sr.Failure.Message, -1) {
				if r, ok := RuleByID(m[1]); ok && !seen[r.ID] {
					seen[r.ID] = true
					hs.Broken = append(hs.Broken, r)
				}
			}
			for _, id := range LabelValues(sr.Labels(), "rule") {
				if r, ok := RuleByID(id); ok && !seen[id] {
					seen[id] = true
					hs.Rules = append(hs.Rules, r)
				}
			}
			return hs
		}
		switch {
		case sr.State.Is(types.SpecStateFailureStates):
			h.Failures = append(h.Failures, spec())
		case sr.State == types.SpecStateSkipped:
			h.Skips = append(h.Skips, spec())
		}
	}
	for _, op := range Operations {
		c := cov[op.ID]
		if len(c.Received) == 0 && len(constraints[op.ID]) == 0 && s.ByOperation[op.ID] == nil {
			continue
		}
		for st := range c.Received {
			c.Statuses = append(c.Statuses, st)
		}
		sort.Ints(c.Statuses)
		for _, st := range c.Listed {
			if c.Received[st] == 0 {
				c.Missed = append(c.Missed, st)
			}
		}
		for _, k := range constraints[op.ID] {
			c.Constraints = append(c.Constraints, *k)
		}
		sort.Slice(c.Constraints, func(i, j int) bool {
			a, b := c.Constraints[i], c.Constraints[j]
			if a.Field != b.Field {
				return a.Field < b.Field
			}
			return a.Kind < b.Kind
		})
		h.Coverage = append(h.Coverage, *c)
	}
	sort.Slice(h.Failures, func(i, j int) bool { return h.Failures[i].Name < h.Failures[j].Name })
	sort.Slice(h.Skips, func(i, j int) bool { return h.Skips[i].Name < h.Skips[j].Name })
	return h
}

var (
	bearerText = regexp.MustCompile(`(?i)(Bearer )([A-Za-z0-9._~+/=-]{8,})`)
)

// redactText hides credentials in a failure message: the messages already carry redacted
// exchanges (Describe); this catches a token or password quoted anywhere else.
func redactText(s string) string {
	s = secretFields.ReplaceAllString(s, `$1"<redacted>"`)
	return bearerText.ReplaceAllString(s, "${1}<redacted>")
}

// WriteHTML renders the report as one self-contained HTML page: inline CSS, no script, no
// font, image or link to load, so it opens with no network.
func (h HTMLReport) WriteHTML(w io.Writer) error {
	return htmlPage.Execute(w, h)
}

var htmlPage = template.Must(template.New("report").Funcs(template.FuncMap{
	"aspects": func() []string { return Aspects },
	"lower":   strings.ToLower,
	"codes": func(cs []int) string {
		if cs == nil {
			return "not shown by the interface"
		}
		if len(cs) == 0 {
			return "none"
		}
		s := make([]string, len(cs))
		for i, c := range cs {
			s[i] = fmt.Sprint(c)
		}
		return strings.Join(s, ", ")
	},
	"listed": func(c HTMLCoverage, st int) bool {
		if c.Listed == nil || st == 413 {
			return true
		}
		for _, l := range c.Listed {
			if l == st {
				return true
			}
		}
		return false
	},
	"time": func(t time.Time) string { return t.Format(time.RFC3339) },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #1b1b1b; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid #ccc; padding: .25rem .5rem; text-align: left; vertical-align: top; font-size: .9rem; }
th { background: #f3f3f3; }
.pass { background: #dff3df; } .partial { background: #fff4cc; } .fail { background: #f8d7d7; }
.muted { color: #666; }
pre { background: #f7f7f7; border: 1px solid #ddd; padding: .5rem; white-space: pre-wrap; font-size: .8rem; }
.unlisted { color: #a00; font-weight: bold; }
details { margin: .5rem 0; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>Target: <code>{{.Target}}</code>. Run: {{.Run}}. Generated {{time .Generated}}.</p>
<p>{{range $p, $t := .Summary.Profile}}<strong>{{$p}}</strong>: {{$t.Passed}} passed, {{$t.Failed}} failed, {{$t.Skipped}} skipped. {{end}}</p>
<p class="muted">An operation is PASS only when every spec of it that ran passed, PARTIAL when one was skipped (it was not judged on everything), FAIL when one failed.</p>

<h2 id="verdicts">Verdict per operation and aspect</h2>
<table>
<tr><th>Operation</th><th>Verdict</th>{{range aspects}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><td>{{.Op}}</td><td class="{{lower .Verdict}}">{{.Verdict}}</td>{{range .Cells}}{{if .Verdict}}<td class="{{lower .Verdict}}" title="passed/failed/skipped">{{.Verdict}} <span class="muted">{{.Tally}}</span></td>{{else}}<td class="muted">-</td>{{end}}{{end}}</tr>
{{end}}</table>

{{if .Run.ReadOnly}}<h2 id="left-out">Left out by the readonly profile</h2>
{{if .Summary.LeftOut}}<table><tr><th>Reason</th><th>Specs</th></tr>
{{range .Summary.LeftOutReasons}}<tr><td>{{.}}</td><td>{{index $.Summary.LeftOut .}}</td></tr>
{{end}}</table>{{else}}<p>Nothing.</p>{{end}}{{end}}

<h2 id="failures">Failures ({{len .Failures}})</h2>
{{range .Failures}}<details open><summary><strong>{{.Name}}</strong></summary>
{{range .Broken}}<p>Broken: rule <strong>{{.ID}}</strong>{{if not .Contract}} (reference, {{.Decision}}){{end}}: {{.Statement}} <span class="muted">({{.Source}})</span></p>{{end}}
{{range .Rules}}<p>The spec checks rule <strong>{{.ID}}</strong>{{if not .Contract}} (reference, {{.Decision}}){{end}}: {{.Statement}} <span class="muted">({{.Source}})</span></p>{{end}}
<pre>{{.Message}}</pre><p class="muted">{{.Location}}</p></details>
{{else}}<p>None.</p>{{end}}

<h2 id="skips">Skipped specs ({{len .Skips}})</h2>
{{if .Skips}}<table><tr><th>Spec</th><th>Reason</th></tr>
{{range .Skips}}<tr><td>{{.Name}}</td><td>{{.Message}}</td></tr>
{{end}}</table>{{else}}<p>None.</p>{{end}}

<h2 id="coverage">Coverage</h2>
<p class="muted">Per operation: the statuses the interface lists for it, the statuses this run received (with how many answers; <span class="unlisted">red</span>: not listed), the listed statuses no answer had, and the field constraints the run sent a value breaking (invalid) or at the bound (bound).</p>
<table>
<tr><th>Operation</th><th>Listed</th><th>Received</th><th>Listed, not received</th><th>Field constraints exercised</th></tr>
{{range $c := .Coverage}}<tr><td>{{.Op}}</td><td>{{codes .Listed}}</td>
<td>{{range .Statuses}}<span{{if not (listed $c .)}} class="unlisted"{{end}}>{{.}}</span>&nbsp;×{{index $c.Received .}} {{else}}none{{end}}</td>
<td>{{if .Listed}}{{if .Missed}}{{codes .Missed}}{{else}}none{{end}}{{else}}-{{end}}</td>
<td>{{range .Constraints}}{{.Field}} {{.Kind}} <span class="muted">(invalid {{.Invalid}}, bound {{.Bound}})</span><br>{{else}}none{{end}}</td></tr>
{{end}}</table>
</body>
</html>
`))
