package proxy

import (
	"strings"
	"testing"
)

// An operation that broke two rules is one JUnit failure naming both, the rule broken first
// first: a reader showing one failure per testcase showed the later one and hid the other.
func TestJUnitFailuresAreOnePerOperation(t *testing.T) {
	op := OperationReport{Exchanges: 9, Violations: []RuleCount{
		{Rule: "UP-1", Party: Deployment, Statement: "answers", Count: 1, First: Example{ExchangeID: 7, Status: 502}},
		{Rule: "TRANS-1", Party: Deployment, Statement: "status given", Count: 1, First: Example{ExchangeID: 3, Status: 200}},
		{Rule: "REQ-1", Party: Client, Statement: "request", Count: 2, First: Example{ExchangeID: 1, Status: 422}},
	}}
	fs, client := junitFailures(op)
	if len(fs) != 1 || fs[0].Type != "TRANS-1, UP-1" || fs[0].Message != "status given" || strings.Index(fs[0].Text, "TRANS-1") > strings.Index(fs[0].Text, "UP-1") {
		t.Errorf("failures %+v, want one naming TRANS-1 then UP-1", fs)
	}
	if len(client) != 1 || !strings.Contains(client[0], "REQ-1") {
		t.Errorf("client lines %v, want REQ-1's", client)
	}
}
