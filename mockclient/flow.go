package mockclient

import (
	"context"

	"github.com/opsapi/mocktoolkit/conformance/flow"
)

// Flow is the world's calls since its last reset as a flow document (GET /__mock/flow): what
// the conformance suite replays against another deployment (CONFORMANCE_FLOWS).
func (c *Client) Flow(ctx context.Context) (flow.Document, error) {
	var out flow.Document
	err := c.do(ctx, "GET", "/__mock/flow", nil, flowAnswer, &out)
	return out, err
}
