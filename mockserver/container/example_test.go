package container_test

import (
	"context"
	"fmt"
	"log"
	"net/http"

	"github.com/testcontainers/testcontainers-go"

	"github.com/opsapi/mocktoolkit/mockclient"
	"github.com/opsapi/mocktoolkit/mockserver/container"
)

// ExampleRun starts the mock image built by `make image` with the seeded world 7, a low rate
// limit, the edge scenario and an admin token, resets a world of its own through the Go client
// and checks that the mock is ready. It needs a Docker engine, so it has no Output line: go test
// compiles it but does not run it (TestRun does the same against a real engine).
func ExampleRun() {
	ctx := context.Background()

	ctr, err := container.Run(ctx, container.DefaultImage,
		container.WithSeed(7),
		container.WithRateLimit(60),
		container.WithScenario("edge"),
		container.WithAdminToken("s3cret"),
	)
	defer func() {
		if err := testcontainers.TerminateContainer(ctr); err != nil {
			log.Printf("terminate mockserver: %v", err)
		}
	}()
	if err != nil {
		log.Printf("start mockserver: %v", err)
		return
	}

	base, err := ctr.BaseURL(ctx)
	if err != nil {
		log.Printf("mockserver base url: %v", err)
		return
	}
	// Steer a world of this test's own through the Go client.
	client, err := ctr.Client(ctx, mockclient.WithAdminToken("s3cret"), mockclient.WithWorld("example"))
	if err != nil {
		log.Printf("mockserver client: %v", err)
		return
	}
	if _, err := client.Reset(ctx, mockclient.Reset{Scenario: "empty"}); err != nil {
		log.Printf("reset: %v", err)
		return
	}
	resp, err := http.Get(base + "/healthz")
	if err != nil {
		log.Printf("healthz: %v", err)
		return
	}
	defer resp.Body.Close()
	fmt.Println(resp.StatusCode)
}
