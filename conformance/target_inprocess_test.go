package conformance_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// The suite's last target: with neither CONFORMANCE_BASE_URL nor CONFORMANCE_IMAGE set, the
// reference mock served in this process (mockserver.New behind httptest). The hook is wired
// here, in a test file, so package conformance never imports the mock it judges; the compiled
// suite (go test -c) includes it.
func init() {
	conformance.SetInProcessStarter(func(context.Context) (string, func(), error) {
		h, err := mockserver.New(mockserver.Config{})
		if err != nil {
			return "", nil, fmt.Errorf("start the in-process mock: %w", err)
		}
		srv := httptest.NewServer(h)
		return srv.URL, srv.Close, nil
	})
}
