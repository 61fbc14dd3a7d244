package container_test

import (
	"context"
	"fmt"
	"log"
	"net/http"

	"github.com/testcontainers/testcontainers-go"

	"github.com/opsapi/mocktoolkit/conformance/container"
)

// ExampleRun starts the mock image built by `make image` with the seeded world 7 and a low rate
// limit, and checks that it is ready. It needs a Docker engine, so it has no Output line: go test
// compiles it but does not run it (TestRun does the same against a real engine).
func ExampleRun() {
	ctx := context.Background()

	ctr, err := container.Run(ctx, container.DefaultImage,
		container.WithSeed(7),
		container.WithRateLimit(60),
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
	resp, err := http.Get(base + "/healthz")
	if err != nil {
		log.Printf("healthz: %v", err)
		return
	}
	defer resp.Body.Close()
	fmt.Println(resp.StatusCode)
}
