package manifest_test

import (
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/manifest"
	"github.com/opsapi/mocktoolkit/fixtures"
)

// The absent id keeps far from every id the manifest names: a deployment whose ids were offset
// to run through 2147480001 had its manifest group named as "a group that does not exist", and
// the suite deleted it.
func TestAbsentIDKeepsFarFromTheManifestsIDs(t *testing.T) {
	var m fixtures.Manifest
	if got := manifest.AbsentID(m); got != 2147480001 {
		t.Errorf("AbsentID of an empty manifest = %d, want 2147480001", got)
	}
	m.Operations.GroupID = 2147480001
	m.Domains.Carts = []fixtures.ManifestCart{{ItemIDs: []int64{1987654000}}}
	got := manifest.AbsentID(m)
	for _, id := range []int64{2147480001, 1987654000} {
		if d := max(got-id, id-got); d < 1<<20 {
			t.Errorf("AbsentID = %d, %d from the manifest's id %d", got, d, id)
		}
	}
	if got <= 0 || got > 1<<31-1 {
		t.Errorf("AbsentID = %d, want a positive id within 32 bits", got)
	}
}
