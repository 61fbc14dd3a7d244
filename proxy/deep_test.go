package proxy_test

import (
	"strings"
	"testing"
)

// An answer nested past what a JSON decoder reads is judged by its upper levels, where every
// field of the interface lies: nesting cannot hide a wrong answer, nor make a right one wrong.
func TestAnswerNestedPastTheDecodersDepthIsJudged(t *testing.T) {
	deep := `"extra":` + strings.Repeat("[", 12000) + strings.Repeat("]", 12000)
	for _, c := range []struct {
		name, body, verdict string
	}{
		{"a right answer", `{"error":false,"message":"ok","data":{"tags":[]},` + deep + `}`, ""},
		{"a wrong answer", `{"error":false,"message":"ok","data":{"tags":"none"},` + deep + `}`, "DOC-1"},
	} {
		head := "Content-Length: " + itoa(len(c.body)) + "\r\n"
		status, verdict := throughProxy(t, rawUpstream(t, answerWith(head, []byte(c.body))))
		if status != 200 || verdict != c.verdict {
			t.Errorf("%s nested 12000 levels deep: %d with verdict %q, want 200 with %q", c.name, status, verdict, c.verdict)
		}
	}
}
