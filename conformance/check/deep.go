package check

import (
	"github.com/opsapi/mocktoolkit/internal/jsonnest"
	"github.com/opsapi/mocktoolkit/spec"
)

// PrunedDepth is how deep an answer nested past spec.MaxDepth is judged: far below every field
// the interface describes, far above what a decoder refuses.
const PrunedDepth = 256

// Readable returns an answer body as the checker reads it, and whether it was cut: valid JSON,
// perhaps, nested past what any JSON reader reads (spec.MaxDepth), is judged by its upper
// levels, where every field of the interface lies, with what lies below PrunedDepth levels as
// null; so nesting neither hides a wrong answer nor fails a right one as "not JSON" (the suite
// did, where the proxy judged it). Any other body comes back as it is.
func Readable(body []byte) ([]byte, bool) {
	if len(body) <= 2*spec.MaxDepth || jsonnest.Nesting(body) <= spec.MaxDepth {
		return body, false
	}
	return jsonnest.Prune(body, PrunedDepth), true
}
