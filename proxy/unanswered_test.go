package proxy_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// An exchange the upstream never answered because the client gave up first is not judged: it
// is not counted as checked, and its operation is skipped in the JUnit report, not passed (a
// run whose every exchange went unanswered reported each operation as passing).
func TestUnansweredExchangeIsNotReportedPassed(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	s := startProxy(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	p := s.proxy
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.url+pTagsList, strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
		t.Fatalf("the client got %d from an upstream that never answers", res.StatusCode)
	}
	deadline := time.Now().Add(5 * time.Second)
	for p.Report().Exchanges == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	r := p.Report()
	if r.Exchanges != 1 || r.Checked != 0 {
		t.Errorf("report: %d exchanges, %d checked; want the one exchange, not checked", r.Exchanges, r.Checked)
	}
	var junit bytes.Buffer
	if err := p.WriteJUnitReport(&junit); err != nil {
		t.Fatal(err)
	}
	out := junit.String()
	i := strings.Index(out, `classname="tagsList"`)
	if i < 0 {
		t.Fatalf("no tagsList testcase:\n%s", out)
	}
	if end := strings.Index(out[i:], "</testcase>"); end < 0 || !strings.Contains(out[i:i+end], "<skipped") {
		t.Errorf("tagsList is not skipped in the JUnit report:\n%.600s", out[i:])
	}
}
