package conformance_test

import (
	"slices"
	"testing"

	"github.com/testcontainers/testcontainers-go"

	"github.com/opsapi/mocktoolkit/conformance"
)

// CONFORMANCE_IMAGE_ARGS reaches the command of the mock started from CONFORMANCE_IMAGE.
func TestImageArgsAreAppendedToTheMocksCommand(t *testing.T) {
	t.Setenv(conformance.EnvImageArgs, " --seed 7   --rate-limit 60 ")
	req := testcontainers.GenericContainerRequest{ContainerRequest: testcontainers.ContainerRequest{Cmd: []string{"--addr", "0.0.0.0:4010"}}}
	if err := imageArgs().Customize(&req); err != nil {
		t.Fatal(err)
	}
	want := []string{"--addr", "0.0.0.0:4010", "--seed", "7", "--rate-limit", "60"}
	if !slices.Equal(req.Cmd, want) {
		t.Errorf("command %q, want %q", req.Cmd, want)
	}
}
