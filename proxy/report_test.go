package proxy_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/proxy"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// runBrokenSession sends through a proxy whose upstream drops X-RateLimit-Remaining on cards/list:
// one clean tags/list, two broken cards/list, one invalid comments/list (the client's fault).
func runBrokenSession(t *testing.T) *setup {
	t.Helper()
	s := startProxy(t, breakAnswer(newMock(t), pCardsList, func(_ *int, h http.Header, _ map[string]any) { h.Del("X-RateLimit-Remaining") }))
	token := s.login(t, manifest().Users.Member)
	s.post(t, pTagsList, token, `{}`)
	s.post(t, pCardsList, token, `{}`)
	s.post(t, pCardsList, token, `{}`)
	s.post(t, pCommentsList, token, `{"card_id": "seven"}`)
	return s
}

// The JSON report counts every exchange and names each rule broken per operation, with the
// first exchange that broke it.
func TestJSONReport(t *testing.T) {
	s := runBrokenSession(t)
	var buf bytes.Buffer
	if err := s.proxy.WriteJSONReport(&buf); err != nil {
		t.Fatal(err)
	}
	var r proxy.Report
	if err := json.Unmarshal(buf.Bytes(), &r); err != nil {
		t.Fatalf("the JSON report does not parse: %v\n%s", err, buf.Bytes())
	}
	if r.Exchanges != 4 || r.Checked != 4 || r.DeploymentViolations != 2 || r.ClientViolations != 1 || len(r.Operations) != 24 || len(r.Rules) != len(proxy.Rules) {
		t.Fatalf("report totals %+v, want 4 exchanges, 2 deployment and 1 client violations, 24 operations", r)
	}
	byOp := map[string]proxy.OperationReport{}
	for _, op := range r.Operations {
		byOp[op.Operation] = op
	}
	cards := byOp["cardsList"]
	if cards.Exchanges != 2 || len(cards.Violations) != 1 || cards.Violations[0].Rule != rules.HDR1 || cards.Violations[0].Count != 2 || cards.Violations[0].First.Detail == "" {
		t.Errorf("cardsList in the report: %+v", cards)
	}
	comments := byOp["commentsList"]
	if len(comments.Violations) != 1 || comments.Violations[0].Rule != rules.REQ1 || comments.Violations[0].Party != proxy.Client {
		t.Errorf("commentsList in the report: %+v", comments)
	}
	if tags := byOp["tagsList"]; tags.Exchanges != 1 || len(tags.Violations) != 0 {
		t.Errorf("tagsList in the report: %+v", tags)
	}
}

type junitReport struct {
	Suites []struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"skipped,attr"`
		Cases    []struct {
			Classname string    `xml:"classname,attr"`
			Skipped   *struct{} `xml:"skipped"`
			Failures  []struct {
				Type string `xml:"type,attr"`
				Text string `xml:",chardata"`
			} `xml:"failure"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// The JUnit report has one testcase per operation, classname the operation id, a failure per
// deployment rule broken; the client's violations are in system-out, unexercised operations
// are skipped.
func TestJUnitReport(t *testing.T) {
	s := runBrokenSession(t)
	var buf bytes.Buffer
	if err := s.proxy.WriteJUnitReport(&buf); err != nil {
		t.Fatal(err)
	}
	var r junitReport
	if err := xml.Unmarshal(buf.Bytes(), &r); err != nil || len(r.Suites) != 1 {
		t.Fatalf("the JUnit report does not parse: %v\n%s", err, buf.Bytes())
	}
	suite := r.Suites[0]
	if suite.Tests != 24 || suite.Failures != 1 || suite.Skipped != 21 || len(suite.Cases) != 24 {
		t.Fatalf("suite: %d tests, %d failures, %d skipped, %d cases; want 24, 1, 21, 24", suite.Tests, suite.Failures, suite.Skipped, len(suite.Cases))
	}
	for _, c := range suite.Cases {
		switch c.Classname {
		case "cardsList":
			if len(c.Failures) != 1 || c.Failures[0].Type != string(rules.HDR1) || !strings.Contains(c.Failures[0].Text, "X-RateLimit-Remaining is missing") {
				t.Errorf("cardsList testcase: %+v", c)
			}
		case "commentsList":
			if len(c.Failures) != 0 || !strings.Contains(c.SystemOut, string(rules.REQ1)) {
				t.Errorf("commentsList testcase: %+v, want no failure and the client violation in system-out", c)
			}
		case "tagsList":
			if len(c.Failures) != 0 || c.Skipped != nil {
				t.Errorf("tagsList testcase: %+v, want a pass", c)
			}
		}
	}
}

// The dashboard is a server-rendered page that reloads itself and lists the exchanges with
// their status and violations.
func TestDashboardListsExchanges(t *testing.T) {
	s := runBrokenSession(t)
	res, err := http.Get(s.url + "/__proxy/")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	page, _ := io.ReadAll(res.Body)
	for _, want := range []string{`http-equiv="refresh"`, "cardsList", string(rules.HDR1), "X-RateLimit-Remaining is missing", "tagsList", "<td>200</td>"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the dashboard does not show %q", want)
		}
	}
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Errorf("dashboard %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
}

// A rule broken twice by one exchange (HDR-1 for each missing rate-limit header) counts once,
// as the verdict header lists it: the report counts exchanges per rule.
func TestReportCountsARuleOnceAnExchange(t *testing.T) {
	body := `{"error":false,"message":"ok","data":{"tags":[]}}`
	up := rawUpstream(t, []byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"+body))
	p, err := proxy.New(proxy.Config{Upstream: up})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	t.Cleanup(front.Close)
	for range 3 {
		res, err := http.Post(front.URL+"/services/operations/v1/operations/tags/list", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	r := p.Report()
	for _, op := range r.Operations {
		for _, rc := range op.Violations {
			if rc.Rule == "HDR-1" && rc.Count != 3 {
				t.Errorf("HDR-1 counted %d times over 3 exchanges, want 3", rc.Count)
			}
		}
	}
	if r.DeploymentViolations != 3 {
		for _, op := range r.Operations {
			for _, rc := range op.Violations {
				t.Logf("%s %s %d: %s", op.Operation, rc.Rule, rc.Count, rc.First.Detail)
			}
		}
		t.Errorf("%d deployment violations over 3 exchanges each breaking HDR-1 only, want 3", r.DeploymentViolations)
	}
}
