package conformance_test

import (
	"testing"

	"github.com/opsapi/mocktoolkit/conformance"
)

// The suite's operations are the OpenAPI document's, in the interface's order (1 to 24), each
// with an area the suite describes.
func TestOperationsAreTheDocumentsInInterfaceOrder(t *testing.T) {
	if len(conformance.Operations) != 24 {
		t.Fatalf("%d operations, want 24", len(conformance.Operations))
	}
	areas := map[string]bool{}
	for _, a := range conformance.Areas {
		areas[a] = true
	}
	for i, op := range conformance.Operations {
		if op.N != i+1 {
			t.Errorf("operation %d is %s, numbered %d", i+1, op.ID, op.N)
		}
		if !areas[op.Area] {
			t.Errorf("%s: area %q is not one the suite describes", op.ID, op.Area)
		}
	}
	if conformance.OpMasterCardsCreate.SuccessCode() != 201 || conformance.OpCardsCreate.CodesShown() {
		t.Errorf("master card create succeeds with %d; card create shows codes %v", conformance.OpMasterCardsCreate.SuccessCode(), conformance.OpCardsCreate.CodesShown())
	}
}
