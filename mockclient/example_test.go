package mockclient_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"time"

	"github.com/opsapi/mocktoolkit/mockclient"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// A test worker takes a world of its own, starts it from a scenario, logs in, faults one call
// and verifies how often the operation was called.
func Example() {
	mock, _ := mockserver.New(mockserver.Config{Now: time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)})
	srv := httptest.NewServer(mock)
	defer srv.Close()
	ctx := context.Background()

	c := mockclient.New(srv.URL, mockclient.WithWorld("worker-1"))
	reset, err := c.Reset(ctx, mockclient.Reset{Scenario: "empty"})
	if err != nil {
		fmt.Println(err)
		return
	}
	token, _ := c.LoginAs(ctx, "member")
	_, _ = c.AddFault(ctx, mockclient.Fault{Operation: "tagsList", Status: 500, Times: 1})
	_, _ = c.SetClock(ctx, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))

	// The app under test now calls c.BaseURL() with the token; here, a stand-in:
	_ = token
	n, _ := c.Count(ctx, mockclient.Filter{Operation: "authenticate", Status: "2xx"})
	clock, _ := c.Clock(ctx)
	fmt.Println(reset.World, reset.Scenario, c.BaseURL() == srv.URL+"/__worlds/worker-1")
	fmt.Println("logins:", n, "clock:", clock.Now.Format(time.RFC3339))
	// Output:
	// worker-1 empty true
	// logins: 1 clock: 2030-01-01T00:00:00Z
}

// A frontend's end-to-end test runs in its own world; afterwards its calls are saved as a flow
// the conformance suite replays against another deployment (CONFORMANCE_FLOWS).
func ExampleClient_Flow() {
	mock, _ := mockserver.New(mockserver.Config{Now: time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)})
	srv := httptest.NewServer(mock)
	defer srv.Close()
	ctx := context.Background()

	c := mockclient.New(srv.URL, mockclient.WithWorld("checkout-e2e"))
	_, _ = c.Reset(ctx, mockclient.Reset{})
	_, _ = c.LoginAs(ctx, "member") // the test under way: here, only its login

	doc, err := c.Flow(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	st := doc.Steps[0]
	fmt.Println(doc.Name, len(doc.Steps), st.Operation, st.As, st.Answer.Status, st.Body["password"])
	// Output:
	// world checkout-e2e 1 authenticate none 200 map[manifest:users.member.password]
}
