package querycheck

import (
	"fmt"
	"strings"
	"testing"
)

// A query of thousands of parameters the page does not read is refused in a message of a few
// lines, not one quoting every name (8000 names made an 87 KB message).
func TestManyUnreadParametersAreNamedBriefly(t *testing.T) {
	var q []string
	for i := range 8000 {
		q = append(q, fmt.Sprintf("p%d=1", i))
	}
	msg := Problem("GET", "/__mock/requests", strings.Join(q, "&"), []string{"limit"}, false)
	if len(msg) > 400 || !strings.Contains(msg, `"p0"`) || !strings.Contains(msg, "7995 more") {
		t.Errorf("message of %d bytes: %.500s; want the first few names and how many more", len(msg), msg)
	}
}
