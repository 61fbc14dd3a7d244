package mockserver

import (
	"strings"

	"github.com/opsapi/mocktoolkit/spec"
)

// textErrors words each top-level field of a request body whose text is not valid UTF-8: raw
// bytes that are not UTF-8, or an escaped lone surrogate such as "\ud800" (D74). A JSON
// decoder would silently turn both into U+FFFD, so the bytes are checked as sent, before
// decoding. It returns nil when every string is valid text.
func textErrors(body []byte) map[string][]string {
	bad := spec.InvalidText(body)
	if len(bad) == 0 {
		return nil
	}
	fields := map[string][]string{}
	for _, path := range bad {
		field := path
		if i := strings.IndexAny(field, ".["); i > 0 {
			field = field[:i] // errors are keyed by the top-level field (D5)
		}
		if len(fields[field]) == 0 {
			fields[field] = append(fields[field], textSentence(field))
		}
	}
	return fields
}

// textSentence is the one wording of the rule (D74).
func textSentence(field string) string {
	if field == "body" {
		return "The request body must be valid UTF-8 text."
	}
	return "The " + strings.ReplaceAll(field, "_", " ") + " field must be valid UTF-8 text."
}
