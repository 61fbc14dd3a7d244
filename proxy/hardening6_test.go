package proxy_test

import (
	"net/http"
	"strings"
	"testing"
)

// An answer that is valid JSON nested deeper than any JSON reader of the toolkit reads (10000
// levels) is passed on unjudged, with a note, not called "not JSON": that false ENV-1 failed CI
// through --fail-on-violation.
func TestDeeplyNestedAnswerIsNotJudgedNotJSON(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	body := []byte(`{"error":false,"message":"ok","data":{"tags":[],"x":` + deep + `}}`)
	status, verdict := throughProxy(t, rawUpstream(t, answerWith("Content-Length: "+itoa(len(body))+"\r\n", body)))
	if status != http.StatusOK || verdict != "" {
		t.Errorf("a 20000-deep valid answer: %d with verdict %q, want the 200 passed on without one", status, verdict)
	}
}
