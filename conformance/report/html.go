package report

import (
	"fmt"
	"html/template"
	"io"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// HTML is what the self-contained HTML report of a run shows (WriteHTML).
type HTML struct {
	Title     string
	Target    string
	Generated time.Time
	Run       conformance.Run
	Summary   Summary
	// Rows are the verdicts per operation and aspect, in interface order.
	Rows []Row
	// Failures and Skips are the failed and skipped specs.
	Failures []Spec
	Skips    []Spec
	// Coverage is per operation, in interface order.
	Coverage []Coverage
}

// Spec is a failed or skipped spec.
type Spec struct {
	Name string
	Op   string
	// Broken are the rules the failure message cites; Rules those the spec checks (its rule:
	// labels) that the message does not cite.
	Broken   []rules.Rule
	Rules    []rules.Rule
	Message  string
	Location string
}

// citedRule finds the rule ids a failure message cites ("rule HDR-1: …", "rule REF-CART (…").
var citedRule = regexp.MustCompile(`\brule ([A-Z]+(?:-[A-Z0-9]+)+)\b`)

// Coverage is what the run exercised of one operation.
type Coverage struct {
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
	Constraints []Constraint
	// Probes are the probe classes (conformance.ProbeClasses) whose specs of the operation ran.
	Probes []string
}

// Constraint is one field constraint exercised.
type Constraint struct {
	Field, Kind    string
	Invalid, Bound int
}

// BuildHTML gathers what the HTML report shows from a suite report narrowed by run.
func BuildHTML(report types.Report, run conformance.Run, target string, now time.Time) HTML {
	s := Summarize(report, run)
	h := HTML{Title: "Conformance report", Target: target, Generated: now.UTC(), Run: run, Summary: s}
	h.Rows = s.Rows()
	tally := newCoverageTally()
	for _, sr := range report.SpecReports {
		if sr.LeafNodeType != types.NodeTypeIt || LeftOutByFilter(sr) {
			continue
		}
		tally.add(sr)
		switch {
		case cutOff(sr):
			// cut off by an interrupt: not the deployment's failure (the summary counts it not run)
		case sr.State.Is(types.SpecStateFailureStates):
			h.Failures = append(h.Failures, specOf(sr))
		case sr.State == types.SpecStateSkipped && !strings.HasPrefix(sr.Failure.Message, DiffersPrefix) && !slices.Contains(sr.Labels(), conformance.LabelExplore):
			h.Skips = append(h.Skips, specOf(sr))
		}
	}
	h.Coverage = tally.rows(s)
	sort.Slice(h.Failures, func(i, j int) bool { return h.Failures[i].Name < h.Failures[j].Name })
	sort.Slice(h.Skips, func(i, j int) bool { return h.Skips[i].Name < h.Skips[j].Name })
	return h
}

// specOf is a failed or skipped spec as the report shows it: the rules its message cites as
// broken, then the others it checks.
func specOf(sr types.SpecReport) Spec {
	hs := Spec{Name: sr.FullText(), Op: LabelValue(sr.Labels(), "op"), Message: conformance.Redact(sr.Failure.Message), Location: sr.Failure.Location.String()}
	seen := map[string]bool{}
	for _, m := range citedRule.FindAllStringSubmatch(sr.Failure.Message, -1) {
		if r, ok := rules.ByID(rules.ID(m[1])); ok && !seen[string(r.ID)] {
			seen[string(r.ID)] = true
			hs.Broken = append(hs.Broken, r)
		}
	}
	for _, id := range LabelValues(sr.Labels(), "rule") {
		if r, ok := rules.ByID(rules.ID(id)); ok && !seen[id] {
			seen[id] = true
			hs.Rules = append(hs.Rules, r)
		}
	}
	return hs
}

// coverageTally counts, per operation, the statuses received, the probe classes run and the
// constraints tried at their bound or past it.
type coverageTally struct {
	cov         map[string]*Coverage
	constraints map[string]map[string]*Constraint
}

func newCoverageTally() coverageTally {
	t := coverageTally{cov: map[string]*Coverage{}, constraints: map[string]map[string]*Constraint{}}
	for _, op := range conformance.Operations {
		t.cov[op.ID] = &Coverage{Op: op.ID, Listed: op.Codes, Received: map[int]int{}}
		t.constraints[op.ID] = map[string]*Constraint{}
	}
	return t
}

// add counts what one spec sent and received.
func (t coverageTally) add(sr types.SpecReport) {
	if c := t.cov[LabelValue(sr.Labels(), "op")]; c != nil && sr.State != types.SpecStateSkipped {
		for _, l := range sr.Labels() {
			if slices.Contains(conformance.ProbeClasses, l) && !slices.Contains(c.Probes, l) {
				c.Probes = append(c.Probes, l)
			}
		}
	}
	for _, rec := range conformance.Records(sr) {
		c := t.cov[rec.Op]
		if c == nil {
			continue
		}
		if rec.Status != 0 {
			c.Received[rec.Status] += rec.Count
		}
		if rec.Constraint == "" {
			continue
		}
		k := t.constraints[rec.Op][rec.Constraint]
		if k == nil {
			field, kind, _ := strings.Cut(rec.Constraint, " ")
			k = &Constraint{Field: field, Kind: kind}
			t.constraints[rec.Op][rec.Constraint] = k
		}
		if rec.Intent == conformance.Invalid.String() {
			k.Invalid += rec.Count
		} else {
			k.Bound += rec.Count
		}
	}
}

// rows are the operations the run reached, in the operations' order, each with its statuses
// sorted, the listed ones it never received, and its constraints by field and kind.
func (t coverageTally) rows(s Summary) []Coverage {
	var out []Coverage
	for _, op := range conformance.Operations {
		c := t.cov[op.ID]
		if len(c.Received) == 0 && len(t.constraints[op.ID]) == 0 && s.ByOperation[op.ID] == nil {
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
		for _, k := range t.constraints[op.ID] {
			c.Constraints = append(c.Constraints, *k)
		}
		sort.Slice(c.Constraints, func(i, j int) bool {
			a, b := c.Constraints[i], c.Constraints[j]
			if a.Field != b.Field {
				return a.Field < b.Field
			}
			return a.Kind < b.Kind
		})
		out = append(out, *c)
	}
	return out
}

// WriteHTML renders the report as one self-contained HTML page: inline CSS, no script, no
// font, image or link to load, so it opens with no network.
func (h HTML) WriteHTML(w io.Writer) error {
	return htmlPage.Execute(w, h)
}

var htmlPage = template.Must(template.New("report").Funcs(template.FuncMap{
	"aspects": func() []string { return conformance.Aspects },
	"class": func(verdict string) string {
		switch verdict {
		case "PASS":
			return "pass"
		case "FAIL":
			return "fail"
		}
		return "partial"
	},
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
	"listed": func(c Coverage, st int) bool {
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
{{if .Summary.NothingRan}}<p class="bad"><strong>NOTHING CHECKED</strong> ({{.Summary.NothingRan}}).</p>{{end}}
{{if .Summary.Interrupted}}<p class="bad"><strong>INTERRUPTED</strong> ({{.Summary.Interrupted}}): some specs did not run or were cut off; the verdicts judge only what ran.</p>{{end}}
<p>{{range $p, $t := .Summary.Profile}}<strong>{{$p}}</strong>: {{$t.Passed}} passed, {{$t.Failed}} failed, {{$t.Skipped}} skipped{{if $t.NotRun}}, {{$t.NotRun}} not run{{end}}. {{end}}</p>
<p class="muted">An operation is PASS only when every spec of it ran and passed, PARTIAL when one was skipped or left out (it was not judged on everything), NOT RUN when an interrupted run left some of its specs unrun, DIFFERS when it chose otherwise than the reference where the interface is silent, FAIL when one failed.</p>

<h2 id="verdicts">Verdict per operation and aspect</h2>
<table>
<tr><th>Operation</th><th>Verdict</th>{{range aspects}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}{{$row := .}}<tr><td>{{.Op}}</td><td class="{{class .Verdict}}">{{.Verdict}}{{if .Total.LeftOut}} <span class="muted">({{.Total.LeftOut}} left out)</span>{{end}}</td>{{range $i, $c := .Cells}}{{with index $row.CellVerdicts $i}}<td class="{{class .}}" title="passed/failed/skipped[/differs]">{{.}} <span class="muted">{{$c}}</span></td>{{else}}<td class="muted">-</td>{{end}}{{end}}</tr>
{{end}}</table>
{{if .Summary.Explore}}<p>Explore mode: {{.Summary.Explore}}</p>{{end}}
{{if .Summary.No429}}<p class="muted">Rate limit: no 429 was received, so only the rate-limit headers were checked (HEADERS ONLY), for {{range $i, $op := .Summary.No429}}{{if $i}}, {{end}}{{$op}}{{end}}.</p>{{end}}

{{if .Run.ReadOnly}}<h2 id="left-out">Left out by the readonly profile</h2>
{{if .Summary.LeftOut}}<table><tr><th>Reason</th><th>Specs</th></tr>
{{range .Summary.LeftOutReasons}}<tr><td>{{.}}</td><td>{{index $.Summary.LeftOut .}}</td></tr>
{{end}}</table>{{else}}<p>Nothing.</p>{{end}}{{end}}

<h2 id="failures">Failures ({{len .Failures}})</h2>
{{range .Failures}}<details open><summary><strong>{{.Name}}</strong></summary>
{{range .Broken}}<p>Broken: rule <strong>{{.ID}}</strong>{{if not .Contract}} (the reference's choice){{end}}: {{.Statement}} <span class="muted">({{.Source}})</span></p>{{end}}
{{range .Rules}}<p>The spec checks rule <strong>{{.ID}}</strong>{{if not .Contract}} (the reference's choice){{end}}: {{.Statement}} <span class="muted">({{.Source}})</span></p>{{end}}
<pre>{{.Message}}</pre><p class="muted">{{.Location}}</p></details>
{{else}}<p>None.</p>{{end}}

<h2 id="differs">Differs from the reference's choice ({{len .Summary.Differs}})</h2>
<p class="muted">Reference specs check our choices where the interface is silent: a target that chose otherwise differs, and that is never a failure.</p>
{{if .Summary.Differs}}<ul>{{range .Summary.Differs}}<li>{{.}}</li>{{end}}</ul>{{else}}<p>None.</p>{{end}}

<h2 id="skips">Skipped specs ({{len .Skips}})</h2>
{{if .Skips}}<table><tr><th>Spec</th><th>Reason</th></tr>
{{range .Skips}}<tr><td>{{.Name}}</td><td>{{.Message}}</td></tr>
{{end}}</table>{{else}}<p>None.</p>{{end}}

<h2 id="coverage">Coverage</h2>
<p class="muted">Per operation: the statuses the interface lists for it, the statuses this run received (with how many answers; <span class="unlisted">red</span>: not listed), the listed statuses no answer had, the field constraints the run sent a value breaking (invalid) or at the bound (bound), and the probe classes run on it (absent and foreign ids, authentication forms, scope, rate arithmetic, whole pagination).</p>
<table>
<tr><th>Operation</th><th>Listed</th><th>Received</th><th>Listed, not received</th><th>Field constraints exercised</th><th>Probes</th></tr>
{{range $c := .Coverage}}<tr><td>{{.Op}}</td><td>{{codes .Listed}}</td>
<td>{{range .Statuses}}<span{{if not (listed $c .)}} class="unlisted"{{end}}>{{.}}</span>&nbsp;×{{index $c.Received .}} {{else}}none{{end}}</td>
<td>{{if .Listed}}{{if .Missed}}{{codes .Missed}}{{else}}none{{end}}{{else}}-{{end}}</td>
<td>{{range .Constraints}}{{.Field}} {{.Kind}} <span class="muted">(invalid {{.Invalid}}, bound {{.Bound}})</span><br>{{else}}none{{end}}</td>
<td>{{range .Probes}}{{.}}<br>{{else}}none{{end}}</td></tr>
{{end}}</table>
</body>
</html>
`))
