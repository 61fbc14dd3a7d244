package conformance_test

import (
	"context"
	"slices"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/spec"
)

// The suite's table of listed codes is the OpenAPI document's (plus 413, which the document
// declares on every operation, D41), so rule STATUS-1 judges by what the interface lists.
func TestListedCodesAreTheDocuments(t *testing.T) {
	doc, err := spec.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range conformance.Operations {
		if !op.CodesShown() {
			continue
		}
		route, ok := spec.Route(doc, op.Path)
		if !ok {
			t.Fatalf("%s: no route", op.ID)
		}
		var got []int
		for k := range route.Operation.Responses.Map() {
			if k != "413" && k != "default" {
				var n int
				for _, c := range k {
					n = n*10 + int(c-'0')
				}
				got = append(got, n)
			}
		}
		slices.Sort(got)
		want := slices.Clone(op.Codes)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: the document lists %v, the suite %v", op.ID, got, want)
		}
	}
}
