package proxy_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/proxy"
)

// TestRulesComeFromTheRegistry checks that every rule id the proxy reports is a rule of the
// registry marked as checked by the proxy, with the registry's statement, and that every such
// rule is in the proxy's table.
func TestRulesComeFromTheRegistry(t *testing.T) {
	inTable := map[rules.ID]proxy.Rule{}
	for _, r := range proxy.Rules {
		inTable[r.ID] = r
	}
	for _, id := range []rules.ID{rules.STATUS1, rules.ENV1, rules.ENV2, rules.ENV3, rules.ENV3,
		rules.ENV4, rules.ERR5, rules.HDR1, rules.HDR2, rules.DOC1,
		rules.ERR6, rules.UP1, rules.REQ1} {
		r, ok := rules.ByID(id)
		switch {
		case !ok:
			t.Errorf("the proxy reports rule %s, which the registry lacks", id)
		case !r.CheckedBy(rules.Proxy):
			t.Errorf("the proxy reports rule %s, which the registry does not mark as checked by the proxy", id)
		case inTable[id].Statement != r.Statement:
			t.Errorf("rule %s: the proxy's statement %q is not the registry's %q", id, inTable[id].Statement, r.Statement)
		}
	}
	for _, r := range rules.All {
		if r.CheckedBy(rules.Proxy) {
			if _, ok := inTable[r.ID]; !ok {
				t.Errorf("rule %s is marked as checked by the proxy but is not in proxy.Rules", r.ID)
			}
		}
	}
	if p := inTable[rules.REQ1].Party; p != proxy.Client {
		t.Errorf("rule %s binds the client, party %q", rules.REQ1, p)
	}
}

// TestProxyImportsNoTestFramework: the proxy reads the registry (conformance/rules, standard
// library only), never the suite or its test framework.
func TestProxyImportsNoTestFramework(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/opsapi/mocktoolkit/proxy").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/onsi/") || dep == "github.com/opsapi/mocktoolkit/conformance" ||
			dep == "github.com/opsapi/mocktoolkit/mockserver" || dep == "github.com/opsapi/mocktoolkit/fixtures" {
			t.Errorf("the proxy depends on %s", dep)
		}
	}
}
