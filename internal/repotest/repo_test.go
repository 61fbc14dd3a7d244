package repotest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the module's root directory.
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", dir, err)
	}
	return dir
}

// walk calls f with every file of the repository (build output and .git left out), its path
// relative to the root.
func walk(t *testing.T, f func(rel, path string)) {
	t.Helper()
	top := root(t)
	err := filepath.WalkDir(top, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(top, path)
		if d.IsDir() {
			// Directories the go tool ignores ("." and "_" prefixes) hold scratch, such as the
			// regression package a test of conformance/explore writes and removes while this runs.
			if rel == ".git" || rel == "build" || (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		f(rel, path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A clone holds no path to a file outside it: the interface is cited by name and section, never
// by where it lies on one machine.
func TestNoPathOutsideTheRepository(t *testing.T) {
	outside := regexp.MustCompile(`\.\./shared/|shared/interface\.md|interface\.md`)
	walk(t, func(rel, path string) {
		if rel == filepath.Join("internal", "repotest", "repo_test.go") {
			return
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if outside.MatchString(line) {
				t.Errorf("%s:%d names a path outside the repository: %s", rel, i+1, strings.TrimSpace(line))
			}
		}
	})
}

// dID is a decision id of docs/decisions.md.
var dID = regexp.MustCompile(`\bD[0-9]{1,3}\b`)

// Decision ids stay in docs/decisions.md and Go comments: no string of the Go code (messages,
// flags' help, reports) carries one, nor the conformance suite's specs, whose failure messages a
// vendor reads. The one exception is the rule registry's Decision field, which only rules.md (the
// registry's document) shows. Other packages' tests may name decisions in their own output.
func TestNoDecisionIDInGoStrings(t *testing.T) {
	fset := token.NewFileSet()
	walk(t, func(rel, path string) {
		if !strings.HasSuffix(rel, ".go") || strings.HasPrefix(rel, filepath.Join("internal", "repotest")) {
			return
		}
		if strings.HasSuffix(rel, "_test.go") && !strings.HasPrefix(rel, "conformance"+string(filepath.Separator)) {
			return
		}
		if strings.HasSuffix(rel, "_test.go") && strings.HasPrefix(rel, filepath.Join("conformance", "rules")) {
			return
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if kv, ok := n.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Decision" {
					return false
				}
			}
			lit, ok := n.(*ast.BasicLit)
			if ok && lit.Kind == token.STRING && dID.MatchString(lit.Value) {
				t.Errorf("%s: a string carries a decision id: %.100s", fset.Position(lit.Pos()), lit.Value)
			}
			return true
		})
	})
}
