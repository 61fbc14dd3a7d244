package mockclient_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/flow"
	"github.com/opsapi/mocktoolkit/mockclient"
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

// Numbers the mock recorded keep their digits through the client: a flow saved from Flow
// replays the call as sent (its `page` of 1.0000000000000000001 came back as 1, and the saved
// flow failed against the mock it was recorded on), and the journal shows what was sent.
func TestClientKeepsRecordedNumbersAsWritten(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, mockserver.Config{}).World("numbers")
	tok, err := c.LoginAs(ctx, "member")
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Manifest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const page = "1.0000000000000000001"
	body := fmt.Sprintf(`{"card_id":%d,"page":%s}`, m.Operations.CardID, page)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL()+"/services/operations/v1/operations/comments/list", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	doc, err := c.Flow(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(doc); !strings.Contains(string(b), `"page":`+page) {
		t.Errorf("the saved flow does not send page %s:\n%s", page, b)
	}
	reqs, err := c.Requests(ctx, mockclient.Filter{Operation: "commentsList"})
	if err != nil || len(reqs) != 1 {
		t.Fatalf("requests: %v %v", reqs, err)
	}
	if b, _ := json.Marshal(reqs[0].Request.Body); !strings.Contains(string(b), `"page":`+page) {
		t.Errorf("the journal's request body is %s, want page %s", b, page)
	}
}
