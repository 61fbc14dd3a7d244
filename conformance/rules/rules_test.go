package rules_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

var idPattern = regexp.MustCompile(`^[A-Z]+(-[A-Z0-9]+)+$`)

// TestRegistry checks the registry's own rules: unique, well-formed ids; a statement and a
// source for every rule; a decision only on reference rules, which never bind a client; client
// rules are checked by the proxy alone (no spec can send a broken request on a client's behalf).
func TestRegistry(t *testing.T) {
	seen := map[rules.ID]bool{}
	for _, r := range rules.All {
		switch {
		case seen[r.ID]:
			t.Errorf("rule %s is in the registry twice", r.ID)
		case !idPattern.MatchString(string(r.ID)):
			t.Errorf("rule id %q is not of the form THEME-N", r.ID)
		case strings.TrimSpace(r.Statement) == "" || strings.TrimSpace(r.Source) == "":
			t.Errorf("rule %s needs a statement and a source", r.ID)
		case r.Decision != "" && !regexp.MustCompile(`^D[0-9]+$`).MatchString(r.Decision):
			t.Errorf("rule %s rests on %q, not a D-id", r.ID, r.Decision)
		case r.Client && (r.CheckedBy(rules.Suite) || !r.Contract()):
			t.Errorf("client rule %s must be a contract rule checked by the proxy only", r.ID)
		}
		seen[r.ID] = true
		if !r.CheckedBy(rules.Suite) && !r.CheckedBy(rules.Proxy) && !r.CheckedBy(rules.Explore) {
			t.Errorf("rule %s is checked by nobody", r.ID)
		}
	}
	if _, ok := rules.ByID(rules.STATUS1); !ok {
		t.Errorf("ByID does not find STATUS-1")
	}
	md := rules.Markdown()
	for _, want := range []string{"| REQ-1 | ", "proxy (binds the client)", "| STATUS-1 | ", "suite, proxy"} {
		if !strings.Contains(md, want) {
			t.Errorf("rules.md lacks %q", want)
		}
	}
}

// TestCiteUnknownRulePanics: a spec citing a rule the registry lacks is a bug found at start.
func TestCiteUnknownRulePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("Cite of an unknown id did not panic")
		}
	}()
	_ = rules.Cite("NO-SUCH-1")
}

// TestEveryIDHasItsConstant: every rule of the registry has a constant of type ID named after
// its id (without hyphens) in ids.go, and every such constant is an id of the registry.
func TestEveryIDHasItsConstant(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "ids.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	constants := map[string]string{} // name -> value
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok {
					t.Errorf("constant %s is not a string literal", name.Name)
					continue
				}
				constants[name.Name], _ = strconv.Unquote(lit.Value)
			}
		}
	}
	for _, r := range rules.All {
		name := strings.ReplaceAll(string(r.ID), "-", "")
		if constants[name] != string(r.ID) {
			t.Errorf("rule %s has no constant %s = %q in ids.go", r.ID, name, r.ID)
		}
		delete(constants, name)
	}
	for name, v := range constants {
		t.Errorf("constant %s = %q names no rule of the registry", name, v)
	}
}
