package flow_test

import (
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/flow"
)

// A 2xx with `error: true` where an operation's codes are not shown is a refusal (D209): it
// replays a recorded 4xx, and does not replay a recorded success. The replay compared the
// status alone, failing a deployment that refuses so and passing one that refused a create
// the frontend saw succeed.
func TestRefusalInASuccessStatusIsOfTheRefusalsClass(t *testing.T) {
	doc := flow.Document{Name: "refusals"}
	for _, c := range []struct {
		recorded, status int
		refused, fails   bool
	}{
		{422, 200, true, false},
		{404, 200, true, false},
		{200, 200, true, true},
		{200, 201, false, false},
		{422, 200, false, true},
	} {
		st := flow.Step{Step: 1, Operation: "tagsCreate", Answer: flow.Answer{Status: c.recorded}}
		why := doc.ClassMismatch(st, c.status, c.refused, "the answer")
		if (why != "") != c.fails {
			t.Errorf("recorded %d, target %d (refused %v): %q, want a failure %v", c.recorded, c.status, c.refused, why, c.fails)
		}
		if c.fails && c.refused && !strings.Contains(why, "a refusal") {
			t.Errorf("the failure does not say the 2xx was a refusal: %q", why)
		}
	}
}
