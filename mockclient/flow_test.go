package mockclient_test

import (
	"context"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/flow"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// Flow fetches the world's calls as a flow: the login and the call made with its token.
func TestClientFlow(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, mockserver.Config{}).World("fl")
	if _, err := c.LoginAs(ctx, "outsider"); err != nil {
		t.Fatal(err)
	}
	doc, err := c.Flow(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Steps) != 1 || doc.Steps[0].Operation != "authenticate" || doc.Steps[0].As != flow.AsNone || doc.Steps[0].Answer.Status != 200 {
		t.Fatalf("flow of one login: %+v", doc)
	}
	if ref, ok, _ := flow.AsRef(doc.Steps[0].Body["password"]); !ok || ref.Manifest != "users.outsider.password" {
		t.Errorf("the password is %v, want a reference to users.outsider.password", doc.Steps[0].Body["password"])
	}
}
