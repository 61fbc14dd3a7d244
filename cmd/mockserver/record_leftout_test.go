package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is a bytes.Buffer a command and a test may share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startProxyOutput runs `mockserver proxy` with args until the returned stop is called; stop
// returns what the command printed after its first line, its log and run's error.
func startProxyOutput(t *testing.T, args ...string) (string, func() (string, string, error)) {
	t.Helper()
	var logs lockedBuffer
	url, stop := startCmdOutput(t, nil, &logs, append([]string{"proxy", "--addr", "127.0.0.1:0"}, args...)...)
	return url, func() (string, string, error) {
		rest, err := stop()
		return rest, logs.String(), err
	}
}

// shiftedUpstream answers tags/list with 14 tags and cards/list with 74 cards whose ids are
// shifted by 2^60+1, as a relay in front of the mock would: every id is past 2^53-1.
func shiftedUpstream(t *testing.T) string {
	t.Helper()
	list := func(key string, n int) string {
		var recs []string
		for i := 1; i <= n; i++ {
			recs = append(recs, fmt.Sprintf(`{"id":%s,"name":"N%d","title":"T%d"}`, strconv.FormatUint(1<<60+1+uint64(i), 10), i, i))
		}
		return `{"error":false,"message":"ok","data":{"` + key + `":[` + strings.Join(recs, ",") + `]}}`
	}
	answers := map[string]string{
		"/services/operations/v1/operations/tags/list":  list("tags", 14),
		"/services/operations/v1/operations/cards/list": list("cards", 74),
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(answers[r.URL.Path]))
	}))
	t.Cleanup(up.Close)
	return up.URL
}

// The stop's line counts the records a recording left out, by kind, and the log names them by
// their ids as written (D197): it said "the log names each record left out" where the log named
// none. A record shown twice is left out once. When the answers showed records but none could
// be kept, an existing file is left as it was and the line says so, not that no answer showed a
// record.
func TestProxyRecordingCountsTheRecordsLeftOut(t *testing.T) {
	for _, existing := range []bool{false, true} {
		t.Run(fmt.Sprintf("existing file %v", existing), func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "rec.yaml")
			const earlier = "name: rec\nbase: empty\n"
			if existing {
				if err := os.WriteFile(file, []byte(earlier), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			base, stop := startProxyOutput(t, "--upstream", shiftedUpstream(t), "--record-scenario", file)
			ops := base + "/services/operations/v1/operations/"
			postJSON(t, ops+"tags/list", "tok-abc", map[string]any{})
			postJSON(t, ops+"tags/list", "tok-abc", map[string]any{}) // the same 14 tags again
			postJSON(t, ops+"cards/list", "tok-abc", map[string]any{})
			out, logs, err := stop()
			if err != nil {
				t.Fatalf("stop the proxy: %v", err)
			}
			if !strings.Contains(out, "left out 88 records: 14 tags, 74 cards") {
				t.Errorf("the stop's line does not count the 88 records left out:\n%s", out)
			}
			if strings.Contains(out, "no answer showed a record") || strings.Contains(out, "the log names each record left out") {
				t.Errorf("the stop's line says what is not so:\n%s", out)
			}
			if !strings.Contains(logs, "tags 1152921504606846978") || !strings.Contains(logs, "cards 1152921504606846978") {
				t.Errorf("the log does not name the records left out by their ids:\n%s", logs)
			}
			raw, _ := os.ReadFile(file)
			if existing && (string(raw) != earlier || !strings.Contains(out, "none could be kept")) {
				t.Errorf("a recording that kept nothing: file\n%s\nline\n%s\nwant the file as it was and the line saying none could be kept", raw, out)
			}
		})
	}
}
