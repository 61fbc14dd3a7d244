package conformance_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	gotoken "go/token"
	"path/filepath"
	"strings"
	"testing"
)

// The package's documentation stays the suite's story: `go doc ./conformance` lists at most 60
// top-level entries (a const or var block counts once; a constructor or method counts under its
// type). Concerns of their own go to their own packages (manifest, report, rules, flow).
func TestGoDocListsAtMost60Entries(t *testing.T) {
	fset := gotoken.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/opsapi/mocktoolkit/conformance")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range append(append([]*doc.Value{}, p.Consts...), p.Vars...) {
		names = append(names, v.Names[0])
	}
	for _, f := range p.Funcs {
		names = append(names, f.Name)
	}
	for _, ty := range p.Types {
		names = append(names, ty.Name)
	}
	if len(names) > 60 {
		t.Errorf("go doc ./conformance lists %d top-level entries, want at most 60: %s", len(names), strings.Join(names, ", "))
	}
}
