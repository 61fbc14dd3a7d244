package container_test

import (
	"context"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockclient"
	"github.com/opsapi/mocktoolkit/mockserver/container"
)

// The options reach the mock's flags, and Client steers the container's worlds.
func TestOptionsAndClient(t *testing.T) {
	now := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	ctr, _ := start(t, container.WithScenario("empty"), container.WithAdminToken("adm"), container.WithNow(now),
		container.WithLatency("1ms"), container.WithMaxWorlds(4))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := ctr.Client(ctx, mockclient.WithAdminToken("adm"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.World("t1").Manifest(ctx)
	if err != nil || m.Operations.CardID != 0 {
		t.Fatalf("manifest of an empty world: card_id %d, %v", m.Operations.CardID, err)
	}
	clk, err := c.Clock(ctx)
	if err != nil || clk.Now.Before(now) || clk.Now.After(now.Add(time.Minute)) {
		t.Fatalf("clock %v, %v; want about %v", clk.Now, err, now)
	}
	if _, err := c.LoginAs(ctx, "member"); err != nil {
		t.Fatal(err)
	}
}
