package page_test

import (
	"net/http"
	"testing"

	"github.com/opsapi/mocktoolkit/internal/page"
)

// A dashboard may not be framed by another site, nor sniffed as another type.
func TestSecurityHeaders(t *testing.T) {
	h := http.Header{}
	page.SecurityHeaders(h)
	for name, want := range map[string]string{"X-Frame-Options": "DENY", "Content-Security-Policy": "frame-ancestors 'none'", "X-Content-Type-Options": "nosniff"} {
		if got := h.Get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}
