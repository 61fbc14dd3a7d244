package conformance

import (
	"net/http"
	"sync"
)

// refusals follows whether a deployment has answered the client anything but 429: a
// deployment that refuses every request, however long the client waits, would otherwise cost
// every spec its retries (20 waits each) and skip it, for hours. Once it has answered anything
// else it is serving, and its refusals are the specs' business (a login throttle, a window
// other processes spent).
type refusals struct {
	mu     sync.Mutex
	served bool
	n      int // requests refused after the client waited, while nothing else was answered
}

// note takes the final answer of one request the client was free to retry.
func (f *refusals) note(ex *Exchange) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case ex.Status != http.StatusTooManyRequests:
		f.served = true
	case ex.Retries > 0 && ex.LongRetry > 0: // waited, and still refused at the bound
		f.n++
	}
}

// RefusedOnly is how many requests the deployment refused with 429 after the client waited
// what Retry-After asked, as long as it may, when it has answered nothing else since the client
// began; 0 once it has.
func (c *Client) RefusedOnly() int {
	c.refused.mu.Lock()
	defer c.refused.mu.Unlock()
	if c.refused.served {
		return 0
	}
	return c.refused.n
}
