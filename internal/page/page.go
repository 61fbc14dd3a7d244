// Package page holds what the HTML pages of the mock and the proxy (their dashboards) send
// besides the page: one set of headers, so neither page can be framed by another site (a
// transparent frame would make a user click the page's own reset or load buttons) nor read as
// another type.
package page

import "net/http"

// SecurityHeaders sets, on h, the headers every dashboard page carries.
func SecurityHeaders(h http.Header) {
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}
