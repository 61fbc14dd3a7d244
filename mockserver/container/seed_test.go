package container_test

import (
	"slices"
	"testing"

	"github.com/testcontainers/testcontainers-go"

	"github.com/opsapi/mocktoolkit/mockserver/container"
)

// WithSeed(0) is the mock's default, as its godoc says: it leaves --seed out, since the mock
// refuses --seed 0 and the container exited 2. Another seed is passed on.
func TestWithSeedZeroLeavesTheFlagOut(t *testing.T) {
	for _, tc := range []struct {
		seed int64
		want []string
	}{
		{0, nil},
		{7, []string{"--seed", "7"}},
	} {
		req := testcontainers.GenericContainerRequest{}
		if err := container.WithSeed(tc.seed).Customize(&req); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(req.Cmd, tc.want) {
			t.Errorf("WithSeed(%d): args %q, want %q", tc.seed, req.Cmd, tc.want)
		}
	}
}
